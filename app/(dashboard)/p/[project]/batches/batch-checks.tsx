"use client";

import { useQuery } from "@tanstack/react-query";
import type { PresendDraft } from "@/lib/schemas/presend";
import { templateQuery } from "@/lib/queries/templates";
import { ErrorState } from "@/components/common/error-state";
import { useDebounced } from "@/components/hooks/use-debounced";
import { PresendChecks } from "@/components/presend/presend-checks";

export type BatchCheckContent = { mode: "template" | "content"; templateId: string; from: { email: string }; subject: string; html: string; text: string };

/**
 * The pre-send checks of what a batch will send, before it starts: the chosen template's
 * source (merge variables unfilled, since every row fills them differently) or the written
 * content, held to the bulk-mail rules (unsubscribe link and header).
 */
export function BatchChecks({ project, content }: { project: string; content: BatchCheckContent }) {
  const settled = useDebounced(content, 500);
  const useTemplate = settled.mode === "template" && Boolean(settled.templateId);
  const template = useQuery({ ...templateQuery(project, settled.templateId), enabled: useTemplate });
  const from = settled.from.email.includes("@") ? { from: settled.from.email } : {};
  let draft: PresendDraft | null = null;
  if (useTemplate && template.data) {
    draft = { subject: settled.subject || template.data.subject, html: template.data.html ?? undefined, text: template.data.text ?? undefined, isBatch: true, ...from };
  } else if (settled.mode === "content" && (settled.html.trim() || settled.text.trim())) {
    draft = { subject: settled.subject, html: settled.html || undefined, text: settled.text || undefined, isBatch: true, ...from };
  }
  if (useTemplate && template.error) return <ErrorState compact title="The template could not be loaded for the checks" error={template.error} onRetry={() => template.refetch()} retrying={template.isFetching} />;
  if (!draft && !(useTemplate && template.isLoading)) return null;
  return <PresendChecks project={project} draft={draft} title="Checks before the batch starts" />;
}
