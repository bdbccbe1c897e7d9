"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { suggestMapping, type SuggestedMapping } from "@/lib/batch/mapping";
import type { BatchContent } from "@/lib/schemas/compose";
import type { ComposeOptions } from "@/lib/schemas/compose";
import { batchMutations } from "@/lib/queries/batches";
import type { CheckResult } from "@/lib/schemas/batch";
import { FileSource, type LoadedFile } from "@/components/batches/file-source";
import { MappingFields } from "@/components/batches/mapping-fields";
import { FromField } from "@/components/compose/from-field";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { describeError } from "@/components/common/error-advice";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormError } from "@/components/ui/form-error";
import { BatchChecks } from "./batch-checks";
import { CheckTable } from "./check-table";

/** Above this many messages the confirmation asks for the number to be typed. */
const TYPE_TO_CONFIRM_FROM = 1000;

type Content = { mode: "template" | "content"; templateId: string; from: { email: string; name?: string }; subject: string; html: string; text: string };

function toContent(c: Content): BatchContent {
  const base: BatchContent = { from: c.from.name ? c.from : { email: c.from.email } };
  if (c.mode === "template") return { ...base, templateId: c.templateId || undefined, ...(c.subject ? { subject: c.subject } : {}) };
  return { ...base, subject: c.subject, ...(c.html ? { html: c.html } : {}), ...(c.text ? { text: c.text } : {}) };
}

/** File → columns → content → every row checked → a confirmation naming the count → the job. */
export function BatchWizard({ project, options }: { project: string; options: ComposeOptions }) {
  const router = useRouter();
  const [file, setFile] = React.useState<LoadedFile | null>(null);
  const [mapping, setMapping] = React.useState<SuggestedMapping | null>(null);
  const [content, setContent] = React.useState<Content>({
    mode: options.templates.length ? "template" : "content",
    templateId: "",
    from: { email: options.domains[0] ? `news@${options.domains[0]}` : "" },
    subject: "",
    html: "",
    text: "",
  });
  const [check, setCheck] = React.useState<CheckResult | null>(null);
  const [confirming, setConfirming] = React.useState(false);
  const template = options.templates.find((t) => t.id === content.templateId);

  function request() {
    if (!file || !mapping) return null;
    const mapped = new Set([mapping.email, mapping.name, mapping.firstName, mapping.lastName]);
    const variables = Object.fromEntries(Object.entries(mapping.variables).filter(([h]) => !mapped.has(h)));
    return { csv: file.text, fileName: file.fileName ?? undefined, mapping: { ...mapping, email: mapping.email ?? "", variables }, content: toContent(content) };
  }

  const checking = useMutation({ mutationFn: () => batchMutations.check(project, request()!), onSuccess: setCheck, onMutate: () => setCheck(null) });
  const starting = useMutation({
    mutationFn: () => batchMutations.start(project, { ...request()!, confirmCount: check!.summary.toSend }),
    onSuccess: ({ id }) => router.push(`/p/${encodeURIComponent(project)}/batches/${id}`),
  });
  const start = () => starting.mutateAsync();
  const checkError = checking.error ? describeError(checking.error) : null;
  const count = check?.summary.toSend ?? 0;

  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">1. The file</h2>
        <FileSource
          loaded={file}
          onLoaded={(f) => {
            setFile(f);
            setCheck(null);
            setMapping(f ? suggestMapping(f.parsed.headers, { rows: f.parsed.rows, templateVariables: template?.variables }) : null);
          }}
        />
      </section>
      {file && mapping && (
        <section className="space-y-3">
          <h2 className="text-lg font-semibold">2. Columns</h2>
          <MappingFields headers={file.parsed.headers} mapping={mapping} onChange={(m) => { setMapping(m); setCheck(null); }} />
        </section>
      )}
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">{file ? "3." : "2."} What to send</h2>
        <FromField domains={options.domains} value={content.from} onChange={(from) => setContent({ ...content, from })} />
        <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Content">
          <label className="flex items-center gap-2">
            <input type="radio" name="batch-mode" checked={content.mode === "template"} onChange={() => setContent({ ...content, mode: "template" })} /> A stored template (merge variables from the columns)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="batch-mode" checked={content.mode === "content"} onChange={() => setContent({ ...content, mode: "content" })} /> Write the content (the same for everyone)
          </label>
        </div>
        {content.mode === "template" && (
          <div className="space-y-1.5">
            <label htmlFor="batch-template" className="text-sm font-medium">Template</label>
            <select id="batch-template" value={content.templateId} onChange={(e) => setContent({ ...content, templateId: e.target.value })} className="flex h-9 w-full rounded-md border bg-background px-2 text-sm">
              <option value="">Choose a template…</option>
              {options.templates.map((t) => (
                <option key={t.id} value={t.id}>{t.name}</option>
              ))}
            </select>
            {template?.variables?.length ? <p className="text-xs text-muted-foreground">It uses: {template.variables.join(", ")}.</p> : null}
          </div>
        )}
        <div className="space-y-1.5">
          <label htmlFor="batch-subject" className="text-sm font-medium">Subject{content.mode === "template" ? " (optional)" : ""}</label>
          <Input id="batch-subject" value={content.subject} onChange={(e) => setContent({ ...content, subject: e.target.value })} />
        </div>
        {content.mode === "content" && (
          <div className="grid gap-3 md:grid-cols-2">
            <div className="space-y-1.5">
              <label htmlFor="batch-html" className="text-sm font-medium">HTML</label>
              <Textarea id="batch-html" rows={6} className="font-mono text-xs" value={content.html} onChange={(e) => setContent({ ...content, html: e.target.value })} />
            </div>
            <div className="space-y-1.5">
              <label htmlFor="batch-text" className="text-sm font-medium">Plain text</label>
              <Textarea id="batch-text" rows={6} value={content.text} onChange={(e) => setContent({ ...content, text: e.target.value })} />
            </div>
          </div>
        )}
        <BatchChecks project={project} content={content} />
      </section>
      <section className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" disabled={!file || !mapping?.email} pending={checking.isPending} onClick={() => checking.mutate()}>
            Check every row
          </Button>
          {check && (
            <Button disabled={count === 0} onClick={() => setConfirming(true)}>
              Send {count.toLocaleString()} {count === 1 ? "message" : "messages"}
            </Button>
          )}
        </div>
        <FormError message={checkError?.message} correlationId={checkError?.correlationId} />
        {check && <CheckTable result={check} />}
      </section>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Send ${count.toLocaleString()} messages?`}
        description={`${count.toLocaleString()} people receive a message as soon as you confirm. ${check ? check.summary.total - count : 0} rows are left out (shown above). This cannot be undone.`}
        confirmLabel={`Send ${count.toLocaleString()} messages`}
        typeToConfirm={count >= TYPE_TO_CONFIRM_FROM ? String(count) : undefined}
        onConfirm={start}
      />
    </div>
  );
}
