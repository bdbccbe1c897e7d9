"use client";

import * as React from "react";
import { useForm } from "react-hook-form";
import { SendIcon } from "lucide-react";
import { EVENT_TYPES } from "@/contract/wire/words";
import { Form } from "@/components/ui/form";
import { TextField } from "@/components/common/text-field";
import { SelectField } from "@/components/common/select-field";
import { FormSubmitRow } from "@/components/common/form-submit-row";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { lazyResolver } from "@/lib/lazy-resolver";
import { webhookTestMutations } from "@/lib/queries/webhook-test";
import type { WebhookTestRequest, WebhookTestResult } from "@/lib/schemas/webhook-test";

type Values = { url: string; secret: string; eventType: (typeof EVENT_TYPES)[number] };
const FIELDS = ["url", "secret", "eventType"] as const;

const resolver = lazyResolver<Values>(async () => {
  const [{ zodResolver }, { webhookTestRequest }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/webhook-test")]);
  return zodResolver(webhookTestRequest) as never;
});

/** The test form and the last answer; the pasted secret lives in the form only (gcTime 0: not kept by the mutation cache). */
export default function WebhookTestForm({ project }: { project: string }) {
  const [result, setResult] = React.useState<WebhookTestResult | null>(null);
  const form = useForm<Values>({ resolver, defaultValues: { url: "", secret: "", eventType: "delivery" }, mode: "onTouched" });
  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: Values) => webhookTestMutations.send(project, v satisfies WebhookTestRequest),
    gcTime: 0,
    onSuccess: (r) => setResult(r),
  });
  return (
    <div className="space-y-4">
      <Form {...form}>
        <form noValidate aria-label="Test an endpoint" onSubmit={form.handleSubmit((v) => !mutation.isPending && mutation.mutate(v))} className="grid gap-4">
          <TextField control={form.control} name="url" label="Endpoint URL" placeholder="https://example.com/webhooks" inputMode="url" autoComplete="off" />
          <TextField
            control={form.control}
            name="secret"
            label="Signing secret"
            optional
            type="password"
            autoComplete="off"
            placeholder="whsec_…"
            description="Signs the sample the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature). Sent once, never stored."
          />
          <SelectField control={form.control} name="eventType" label="Event" options={EVENT_TYPES} />
          <FormSubmitRow error={formError} pending={mutation.isPending} icon={SendIcon} submitLabel="Send test event" />
        </form>
      </Form>
      {result && <TestResult result={result} />}
    </div>
  );
}

function TestResult({ result: r }: { result: WebhookTestResult }) {
  const good = r.status !== null && r.status >= 200 && r.status < 300;
  return (
    <div role="status" aria-label="Test result" className="min-w-0 space-y-2 rounded-md border p-3 text-sm" data-test-status={r.status ?? "none"}>
      <p className="font-medium">
        {r.status === null ? `No answer: ${r.error}` : `HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ""}`}
        <span className="font-normal text-muted-foreground"> · {r.ms} ms</span>
        {r.status !== null && <span className={good ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}> · {good ? "accepted" : "not accepted"}</span>}
      </p>
      <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Signed</dt>
        <dd>{r.signed ? <span className="break-all font-mono">yes, webhook-id {r.webhookId}</span> : "no (no secret given)"}</dd>
        <dt className="text-muted-foreground">TLS</dt>
        <dd className="break-words">
          {r.tls
            ? `${r.tls.protocol ?? "?"}, ${r.tls.cipher ?? "?"}; certificate ${r.tls.subject ?? "?"} from ${r.tls.issuer ?? "?"}, valid to ${r.tls.validTo ?? "?"}${r.tls.authorized ? "" : " (not trusted)"}`
            : "none (plain http)"}
        </dd>
      </dl>
      {r.status !== null && (
        <div>
          <p className="text-xs text-muted-foreground">{r.answerCut ? "The answer's first kilobyte:" : "The answer:"}</p>
          <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">{r.answer || "(empty)"}</pre>
        </div>
      )}
    </div>
  );
}
