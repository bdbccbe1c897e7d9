"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useForm } from "react-hook-form";
import { InboxIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { InboundSimulateRequest } from "@/lib/schemas/emails";
import { messageMutations } from "@/lib/queries/messages";
import { Form } from "@/components/ui/form";
import { TextareaField, TextField } from "@/components/common/text-field";
import { FormSubmitRow } from "@/components/common/form-submit-row";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { lazyResolver } from "@/lib/lazy-resolver";
import { messageHref } from "@/components/messages/hrefs";

const FIELDS = ["to", "from", "subject", "text", "html"] as const;

/** zod and the schema load on the first check of the form (lib/lazy-resolver.ts). */
const resolver = lazyResolver<InboundSimulateRequest>(async () => {
  const [{ zodResolver }, { inboundSimulateRequest }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/emails")]);
  return zodResolver(inboundSimulateRequest);
});

export function SimulateForm({ project }: { project: string }) {
  const [result, setResult] = React.useState<{ id: string | null; subject: string } | null>(null);
  const form = useForm<InboundSimulateRequest>({
    resolver,
    defaultValues: { to: "", from: "", subject: "", text: "", html: "" },
    mode: "onTouched",
  });
  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: InboundSimulateRequest) => messageMutations.simulate(project, { ...v, text: v.text || undefined, html: v.html || undefined }),
    onSuccess: (r, v) => {
      setResult({ id: r.id, subject: v.subject });
      toast.success("Inbound message received", { description: r.id ? `Message ${r.id}` : undefined });
    },
  });

  return (
    <div className="space-y-5">
      {result && (
        <div role="status" className="rounded-md border border-teal-300 bg-teal-50 p-3 text-sm text-teal-950 dark:border-teal-800 dark:bg-teal-950 dark:text-teal-50">
          The service received “{result.subject}”.{" "}
          {result.id ? (
            <Link href={messageHref(project, result.id)} className="font-medium underline underline-offset-4">
              Open the message {result.id}
            </Link>
          ) : (
            "The service did not return its id; the message is already listed in Messages."
          )}
        </div>
      )}
      <Form {...form}>
        <form noValidate aria-label="Simulate inbound mail" onSubmit={form.handleSubmit((v) => !mutation.isPending && mutation.mutate(v))} className="grid gap-4">
          <TextField control={form.control} name="to" label="To" placeholder="support@acme.test" description="An address on one of this project's domains with receiving enabled." />
          <TextField control={form.control} name="from" label="From" placeholder="customer@example.com" />
          <TextField control={form.control} name="subject" label="Subject" placeholder="I never got my receipt" />
          <TextareaField control={form.control} name="text" label="Text" rows={5} />
          <TextareaField
            control={form.control}
            name="html"
            label="HTML"
            rows={5}
            className="font-mono text-xs"
            description="Optional. Shown in a sandbox on the message screen, as real inbound mail is."
          />
          <FormSubmitRow error={formError} pending={mutation.isPending} icon={InboxIcon} submitLabel="Receive message" />
        </form>
      </Form>
    </div>
  );
}
