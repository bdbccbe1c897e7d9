import type { PresendDraft } from "@/lib/schemas/presend";
import type { PreviewRequest } from "@/lib/schemas/templates";

/**
 * What the template screen asks the service to render: the template's (or the draft's)
 * subject and bodies, and the merge data. One function for the page shell's first preview
 * and the screen's, so the first one is the screen's first query.
 */
export function previewBodyOf(source: { subject: string; html?: string | null; text?: string | null }, data: Record<string, unknown>): PreviewRequest {
  return { subject: source.subject, ...(source.html ? { html: source.html } : {}), ...(source.text ? { text: source.text } : {}), data };
}

/** What the pre-send checks look at: the source the preview renders (merge variables unfilled, so each place is a place in the source). */
export function checksDraftOf(body: PreviewRequest): PresendDraft {
  return { subject: body.subject ?? "", html: body.html, text: body.text };
}
