import type { Finding, PresendDraftParsed } from "@/lib/schemas/presend";
import { finding } from "./finding";
import type { ExtractedLink } from "./links";
import { visibleText, type HtmlSource } from "./source";

/** Below this share of the html's visible text, the text part reads as an afterthought to filters. */
export const TEXT_SHARE_MIN = 0.3;
/** Short html (a notice, a code) is not compared: a few words either way mean nothing. */
const TEXT_COMPARE_FROM_CHARS = 200;

// `\{\{[\s#^]*unsub`, not `\{\{\s*[#^]?\s*unsub`: two runs of \s* around an optional character try every
// split of a long run of spaces, the square of its length (the text part may be a megabyte).
const UNSUBSCRIBE = /unsubscribe|opt[\s-]?out|abmelden|abbestellen|d[ée]sabonner|d[ée]sinscri|darse de baja|cancelar (la )?suscripci|disiscriv|afmelden|\{\{[\s#^]*unsub/i;

const headerNamed = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

export function checkTextPart(draft: PresendDraftParsed, source: HtmlSource | null): Finding[] {
  const out: Finding[] = [];
  const text = (draft.text ?? "").trim();
  if (!draft.subject.trim()) out.push(finding("text", "subject-empty", "warning", "The subject is empty; many people never open mail without one, and filters score it."));
  if (!source && !text) {
    out.push(finding("text", "body-empty", "error", "The message has no body: neither html nor text."));
    return out;
  }
  if (!source) return out;
  const htmlText = visibleText(source.document.children);
  if (!text) {
    out.push(finding("text", "text-missing", "warning", "There is no plain-text part: text-only clients and some screen readers show nothing useful, and spam filters score html-only mail."));
  } else if (htmlText.length >= TEXT_COMPARE_FROM_CHARS && text.replace(/\s+/g, " ").length < htmlText.length * TEXT_SHARE_MIN) {
    const share = Math.round((text.replace(/\s+/g, " ").length / htmlText.length) * 100);
    out.push(
      finding("text", "text-short", "warning", `The text part is ${share < 1 ? "under 1%" : `${share}%`} as long as the html's text (${text.length.toLocaleString("en-US")} against ${htmlText.length.toLocaleString("en-US")} characters); filters flag parts that differ this much, and text-only readers miss content.`),
    );
  }
  return out;
}

/** Bulk mail: a visible way out and the one-click header Gmail and Yahoo require from bulk senders. */
export function checkUnsubscribe(draft: PresendDraftParsed, links: ExtractedLink[]): Finding[] {
  if (!draft.isBatch) return [];
  const hasLink = links.some((l) => UNSUBSCRIBE.test(l.href) || UNSUBSCRIBE.test(l.text)) || UNSUBSCRIBE.test(draft.text ?? "");
  const header = headerNamed(draft.headers, "list-unsubscribe");
  if (!hasLink && !header) {
    return [
      finding("text", "unsubscribe-missing", "error", "This batch has no unsubscribe link and no List-Unsubscribe header: Gmail and Yahoo require one-click unsubscribe from bulk senders, and people who cannot leave report spam instead."),
    ];
  }
  const out: Finding[] = [];
  if (!hasLink) out.push(finding("text", "unsubscribe-link", "warning", "There is a List-Unsubscribe header but no unsubscribe link in the message; clients that do not show the header leave readers no way out but the spam button."));
  if (!header) out.push(finding("text", "list-unsubscribe-header", "warning", "There is an unsubscribe link but no List-Unsubscribe header; Gmail and Yahoo require the header (one-click) from bulk senders."));
  else if (!/One-Click/i.test(headerNamed(draft.headers, "list-unsubscribe-post") ?? "")) {
    out.push(finding("text", "list-unsubscribe-post", "info", 'Add "List-Unsubscribe-Post: List-Unsubscribe=One-Click" so Gmail and Yahoo can unsubscribe with one click.'));
  }
  return out;
}
