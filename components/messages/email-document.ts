import { rewriteEmailHtml } from "@/lib/messages/email-html";
import { effectiveScheme } from "./email-scheme";
import { srcDocAround, type SrcDocOptions } from "./email-srcdoc";

/**
 * An email's html all the way to the frame's document: the rewriting pass (lib/messages/email-html.ts,
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

/** The srcdoc of an email as a client in `scheme` would show it (see srcDocAround). */
export function emailSrcDoc(html: string, opts: SrcDocOptions = {}): string {
  const blockImages = !opts.allowRemoteImages;
  const read = rewriteEmailHtml(html, { blockImages });
  const scheme = effectiveScheme(opts.scheme ?? "light", read.darkStyles);
  const body = scheme === "partial" ? rewriteEmailHtml(html, { blockImages, recolor: true }).html : read.html;
  return srcDocAround(body, { ...opts, scheme, colorScheme: read.colorScheme });
}
