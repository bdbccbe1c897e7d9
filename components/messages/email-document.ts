import { rewriteEmailHtml } from "./email-html";
import { srcDocAround } from "./email-srcdoc";

/**
 * An email's html all the way to the frame's document: the rewriting pass (email-html.ts,
 * one linear pass of htmlparser2's tokenizer; callers bound the html's length first,
 * bounds.ts) and the document around it (email-srcdoc.ts).
 */
export function blockRemoteImages(html: string): string {
  return rewriteEmailHtml(html, { blockImages: true }).html;
}

/** How many remote image references the viewer would allow (for "Show 3 remote images"). */
export function countRemoteImages(html: string): number {
  return rewriteEmailHtml(html, { blockImages: true }).remote;
}

export function emailSrcDoc(html: string, opts: { allowRemoteImages?: boolean } = {}): string {
  return srcDocAround(rewriteEmailHtml(html, { blockImages: !opts.allowRemoteImages }).html, opts);
}
