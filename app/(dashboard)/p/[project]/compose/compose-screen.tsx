"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useRouter } from "next/navigation";
import type { z } from "zod";
import { FileSpreadsheetIcon } from "lucide-react";
import type { composeForm, ComposeForm } from "@/lib/schemas/compose";
import { recipientCount } from "@/lib/messages/recipient-count";
import type { SendEmail } from "@/lib/schemas/emails";
import type { ComposeOptions, ComposePrefill } from "@/lib/schemas/compose";
import { PageHeader } from "@/components/common/page-header";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormError } from "@/components/ui/form-error";
import { AddressChips } from "./address-chips";
import { NameValueRows } from "@/components/compose/name-value-rows";
import { AttachmentsDrop } from "@/components/compose/attachments-drop";
import { SchedulePicker } from "./schedule-picker";
import { FromField } from "@/components/compose/from-field";
import { fieldMessageText } from "@/components/ui/field-message";
import { ReviewDialog } from "./review-dialog";
import { rowErrorsOf, type FieldErrors } from "./form-errors";
import { useComposeForm, type Check } from "./use-compose-form";

/** The template's fields load when a template is chosen to write with (hovering the choice starts the download). */
const loadTemplateFields = () => import("./template-fields");
const TemplateFields = React.lazy(() => loadTemplateFields().then((m) => ({ default: m.TemplateFields })));

type ComposeValues = z.input<typeof composeForm>;

/** zod and the compose schema load on the first check of a field; a valid form has them. */
const loadSchema = () => import("@/lib/schemas/compose");
async function checkCompose(values: ComposeValues): Promise<Check<ComposeForm>> {
  const parsed = (await loadSchema()).composeForm.safeParse(values);
  return parsed.success ? { data: parsed.data } : { issues: parsed.error.issues };
}

function msg(errors: FieldErrors, path: string): string | undefined {
  const direct = errors[path];
  if (direct) return fieldMessageText(direct);
  // An array of addresses: the first bad item names itself.
  const items = rowErrorsOf(errors, path, ["email"]);
  const i = items?.findIndex((e) => e.email) ?? -1;
  return i >= 0 ? `Recipient ${i + 1}: ${items![i]!.email}` : undefined;
}

/**
 * One message: recipients as chips, content or a template with its variables, tags, headers,
 * attachments, now or later. Submitting validates and opens the review (preview + the
 * recipient count); only the review's button sends.
 */
export function ComposeScreen({
  project,
  options,
  prefill,
  prefillMissing,
  canBatch,
}: {
  project: string;
  options: ComposeOptions;
  prefill: ComposePrefill | null;
  prefillMissing: boolean;
  canBatch: boolean;
}) {
  const router = useRouter();
  const [review, setReview] = React.useState<SendEmail | null>(null);
  const form = useComposeForm<ComposeValues, ComposeForm>({
    check: checkCompose,
    defaultValues: {
      mode: prefill?.templateId ? "template" : "content",
      from: prefill?.from ?? { email: options.domains[0] ? `hello@${options.domains[0]}` : "", name: "" },
      to: prefill?.to ?? [],
      cc: prefill?.cc ?? [],
      bcc: prefill?.bcc ?? [],
      replyTo: prefill?.replyTo ?? [],
      subject: prefill?.subject ?? "",
      html: prefill?.html ?? "",
      text: prefill?.text ?? "",
      // The message names its template by id or slug; the picker lists ids.
      templateId: prefill?.templateId ? (options.templates.find((t) => t.id === prefill.templateId || t.slug === prefill.templateId)?.id ?? prefill.templateId) : undefined,
      data: prefill?.data ?? {},
      tags: prefill?.tags ?? [],
      headers: prefill?.headers ?? [],
      attachments: [],
      sendAt: "now",
      scheduledLocal: "",
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    },
  });
  const { errors, setValue } = form;
  // Every value is set by this screen's own controls, in the output's shape.
  const values = form.values as ComposeForm;
  const count = recipientCount(values);

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="Compose"
        description="Send one message now or at a time you choose. You review it, with the number of recipients, before it goes."
        actions={
          canBatch ? (
            <Button variant="outline" asChild>
              <Link href={`/p/${encodeURIComponent(project)}/batches`}>
                <FileSpreadsheetIcon aria-hidden="true" />
                Batch from a file
              </Link>
            </Button>
          ) : null
        }
      />
      {prefill && <p className="rounded-md border bg-muted/50 px-3 py-2 text-sm">Filled in from message <code className="font-mono">{prefill.sourceId}</code>. Attachments are not copied.</p>}
      {prefillMissing && <p role="status" className="rounded-md border px-3 py-2 text-sm">The earlier message could not be read, so the form starts empty.</p>}
      {options.warnings.map((w) => (
        <p key={w} role="status" className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          {w}
        </p>
      ))}
      <form noValidate onSubmit={form.handleSubmit(async (v) => setReview((await loadSchema()).toSendRequest(v)))} className="space-y-6">
        <FromField domains={options.domains} value={values.from} onChange={(v) => setValue("from", v)} error={msg(errors, "from.email") ?? msg(errors, "from.name")} />
        <AddressChips id="to" label="To" value={values.to ?? []} onChange={(v) => setValue("to", v)} error={msg(errors, "to")} />
        <div className="grid gap-4 md:grid-cols-2">
          <AddressChips id="cc" label="Cc" value={values.cc ?? []} onChange={(v) => setValue("cc", v)} error={msg(errors, "cc")} placeholder="Optional" />
          <AddressChips id="bcc" label="Bcc" value={values.bcc ?? []} onChange={(v) => setValue("bcc", v)} error={msg(errors, "bcc")} placeholder="Optional" />
        </div>
        <AddressChips id="replyTo" label="Reply-To" value={values.replyTo ?? []} onChange={(v) => setValue("replyTo", v)} error={msg(errors, "replyTo")} placeholder="Optional" />

        <div role="radiogroup" aria-label="Content" className="inline-flex gap-1 rounded-lg bg-muted p-1 text-sm">
          {(["content", "template"] as const).map((m) => (
            <label key={m} onPointerEnter={m === "template" ? () => void loadTemplateFields().catch(() => {}) : undefined} className="cursor-pointer rounded-md px-3 py-1.5 has-[:checked]:bg-background has-[:checked]:shadow-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
              <input type="radio" name="compose-mode" value={m} className="sr-only" checked={values.mode === m} onChange={() => setValue("mode", m)} />
              {m === "content" ? "Write content" : "Use a template"}
            </label>
          ))}
        </div>
        {values.mode === "template" && (
          <React.Suspense fallback={<div className="h-24 animate-pulse rounded-md bg-muted" role="status" aria-busy="true" aria-label="Loading the template's fields" />}>
            <TemplateFields
              project={project}
              templates={options.templates}
              templateId={values.templateId}
              data={values.data ?? {}}
              onTemplate={(id) => setValue("templateId", id)}
              onData={(d) => setValue("data", d)}
              error={msg(errors, "templateId")}
            />
          </React.Suspense>
        )}
        <div className="space-y-1.5">
          <label htmlFor="subject" className="text-sm font-medium">
            Subject{values.mode === "template" ? " (optional: the template's subject is used when empty)" : ""}
          </label>
          <Input id="subject" {...form.textField("subject")} aria-invalid={errors.subject ? true : undefined} aria-describedby={errors.subject ? "subject-error" : undefined} />
          {errors.subject && <p id="subject-error" role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{msg(errors, "subject")}</p>}
        </div>
        {values.mode === "content" && (
          <div className="grid gap-4 md:grid-cols-2">
            <div className="space-y-1.5">
              <label htmlFor="html" className="text-sm font-medium">HTML</label>
              <Textarea id="html" rows={10} className="font-mono text-xs" {...form.textField("html")} aria-invalid={errors.html ? true : undefined} />
              {errors.html && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{msg(errors, "html")}</p>}
            </div>
            <div className="space-y-1.5">
              <label htmlFor="text" className="text-sm font-medium">Plain text</label>
              <Textarea id="text" rows={10} {...form.textField("text")} />
            </div>
          </div>
        )}
        <div className="grid gap-6 md:grid-cols-2">
          <NameValueRows id="tags" legend="Tags" rows={values.tags ?? []} onChange={(v) => setValue("tags", v)} errors={rowErrorsOf(errors, "tags", ["name", "value"])} addLabel="Add tag" namePlaceholder="campaign" valuePlaceholder="spring_sale" />
          <NameValueRows id="headers" legend="Custom headers" rows={values.headers ?? []} onChange={(v) => setValue("headers", v)} errors={rowErrorsOf(errors, "headers", ["name", "value"])} addLabel="Add header" namePlaceholder="X-Campaign" valuePlaceholder="Value (one line)" />
        </div>
        <AttachmentsDrop value={values.attachments ?? []} onChange={(v) => setValue("attachments", v)} error={msg(errors, "attachments")} />
        <SchedulePicker
          sendAt={values.sendAt}
          local={values.scheduledLocal}
          timeZone={values.timeZone}
          onChange={(patch) => {
            for (const [k, v] of Object.entries(patch)) setValue(k as "sendAt" | "scheduledLocal" | "timeZone", v);
          }}
          error={msg(errors, "scheduledLocal") ?? msg(errors, "timeZone")}
        />
        <FormError message={Object.keys(errors).length ? "Some fields need attention: see the messages above." : null} />
        <div className="flex justify-end">
          <Button type="submit">
            Review and send to {count} {count === 1 ? "recipient" : "recipients"}
          </Button>
        </div>
      </form>
      <ReviewDialog
        project={project}
        request={review}
        onClose={() => setReview(null)}
        onSent={(id) => router.push(`/p/${encodeURIComponent(project)}/messages/${encodeURIComponent(id)}`)}
        onFieldError={(param, message) => {
          setReview(null);
          form.setError(param, message);
        }}
      />
    </div>
  );
}
