"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import { SendIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { PreviewResponse, Template } from "@/lib/schemas/templates";
import type { PresendResult } from "@/lib/schemas/presend";
import { checksDraftOf, previewBodyOf } from "./preview-body";
import type { TemplateSample } from "@/lib/schemas/templates-form";
import { previewQuery, templateMutations } from "@/lib/queries/templates";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { PreviewPanel } from "./preview-panel";
import { VariablesPanel } from "./variables-panel";
import { SamplesBar } from "./samples-bar";
import { useDebounced } from "@/components/hooks/use-debounced";
import { PresendChecks } from "@/components/presend/presend-checks";
import { loadEmailRewriter, PreparedEmailHtmlProvider, type PreparedEmailHtml } from "@/components/messages/use-rewritten-html";

/**
 * "What will Ada see, on her phone, if her last name is missing?" Merge data (form, JSON or
 * a saved set) → the service's own rendering, desktop and mobile side by side. Draft mode
 * edits a copy for previewing only: the interface has no operation to save a template.
 */
export function TemplateScreen({
  project,
  template,
  initialSamples,
  initialPreview,
  initialFrame,
  initialChecks,
  canWrite,
  canSend,
  userEmail,
}: {
  project: string;
  template: Template;
  initialSamples: TemplateSample[];
  initialPreview?: PreviewResponse;
  /** The first preview's html as the page rewrote it for the frames (use-rewritten-html.tsx). */
  initialFrame?: PreparedEmailHtml;
  initialChecks?: Promise<PresendResult | null>;
  canWrite: boolean;
  canSend: boolean;
  userEmail: string;
}) {
  const [data, setData] = React.useState<Record<string, unknown>>({});
  const [draft, setDraft] = React.useState(false);
  const [content, setContent] = React.useState({ subject: template.subject, html: template.html ?? "", text: template.text ?? "" });
  const source = draft ? content : { subject: template.subject, html: template.html ?? "", text: template.text ?? "" };
  // One object per change of what it holds: useDebounced re-arms on a new value, and a body made
  // afresh on every render re-armed it on every render, its own included (a render every 300 ms, for ever).
  const current = React.useMemo(() => previewBodyOf({ subject: source.subject, html: source.html, text: source.text }, data), [source.subject, source.html, source.text, data]);
  const body = useDebounced(current, 300);
  // The page rendered the template as it is, without merge data: that preview seeds that body's query only.
  const opening = initialPreview && JSON.stringify(body) === JSON.stringify(previewBodyOf(template, {})) ? initialPreview : undefined;
  const preview = useQuery({ ...previewQuery(project, body), initialData: opening });
  const checksDraft = checksDraftOf(body);
  const openingChecks = initialChecks && JSON.stringify(checksDraft) === JSON.stringify(checksDraftOf(previewBodyOf(template, {}))) ? initialChecks : undefined;
  const variables = preview.data?.variables ?? template.variables ?? [];
  const test = useMutation({
    // One key per click: the button is disabled while the send is in flight, so a double click sends once.
    mutationFn: () => templateMutations.testSend(project, template.id, body, crypto.randomUUID()),
    onSuccess: (r) => toast.success(`Test sent to ${userEmail}`, { description: `Message ${r.id}`, action: { label: "Open", onClick: () => window.location.assign(`/p/${encodeURIComponent(project)}/messages/${encodeURIComponent(r.id)}`) } }),
    onError: (e) => toast.error("The test could not be sent", { description: e.message }),
  });
  const draftId = React.useId();
  // The first change of what the preview renders: the frames will need the rewriter for the
  // next preview, so its download starts while that preview is debounced and rendered.
  const edited = draft || Object.keys(data).length > 0;
  React.useEffect(() => {
    if (edited) void loadEmailRewriter().catch(() => {});
  }, [edited]);

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<Link href={`/p/${encodeURIComponent(project)}/templates`} className="underline-offset-4 hover:underline">Templates</Link>}
        title={template.name}
        description={<>Id <code className="font-mono">{template.id}</code>{template.slug ? <> · slug <code className="font-mono">{template.slug}</code></> : null}</>}
        actions={
          canSend ? (
            <Button onClick={() => test.mutate()} pending={test.isPending}>
              <SendIcon aria-hidden="true" />
              Send test to me
            </Button>
          ) : (
            <span className="text-sm text-muted-foreground">Your role cannot send test messages.</span>
          )
        }
      />
      <div className="grid gap-6 2xl:grid-cols-[22rem_1fr]">
        <aside className="grid content-start gap-6 md:grid-cols-2 2xl:grid-cols-1">
          <VariablesPanel variables={variables} data={data} onChange={setData} />
          <div className="space-y-6">
          <SamplesBar project={project} templateId={template.id} initial={initialSamples} data={data} onLoad={setData} canWrite={canWrite} />
          <div className="space-y-3 rounded-md border p-3">
            <div className="flex items-center gap-2">
              <Switch id={draftId} checked={draft} onCheckedChange={setDraft} />
              <label htmlFor={draftId} className="text-sm font-medium">Draft mode</label>
            </div>
            <p className="text-xs text-muted-foreground">
              The service&apos;s interface cannot save templates, so edits here are only for previewing and are lost when you leave. Copy the result into the template&apos;s source when it is right.
            </p>
            {draft && (
              <div className="space-y-2">
                <label htmlFor="draft-subject" className="text-xs font-medium">Subject</label>
                <Input id="draft-subject" value={content.subject} onChange={(e) => setContent({ ...content, subject: e.target.value })} />
                <label htmlFor="draft-html" className="text-xs font-medium">HTML</label>
                <Textarea id="draft-html" rows={10} className="font-mono text-xs" value={content.html} onChange={(e) => setContent({ ...content, html: e.target.value })} />
                <label htmlFor="draft-text" className="text-xs font-medium">Text</label>
                <Textarea id="draft-text" rows={6} className="font-mono text-xs" value={content.text} onChange={(e) => setContent({ ...content, text: e.target.value })} />
              </div>
            )}
          </div>
          </div>
        </aside>
        <div className="min-w-0 space-y-6">
          <PreparedEmailHtmlProvider value={initialFrame}>
            {preview.error ? <ErrorState title="The preview could not be rendered" error={preview.error} onRetry={() => preview.refetch()} /> : <PreviewPanel preview={preview.data} loading={preview.isFetching} />}
          </PreparedEmailHtmlProvider>
          <PresendChecks project={project} draft={checksDraft} initial={openingChecks} />
        </div>
      </div>
    </div>
  );
}
