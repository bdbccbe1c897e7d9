import type { EmailScheme } from "./email-scheme";

/**
 * The srcdoc of an untrusted email (inbound mail, a template preview). Defence in depth
 * around the iframe's sandbox (no scripts, no same origin):
 * - a CSP `<meta>` first in the document: no scripts, no fetches, no forms; images only
 *   from `data:`/`cid:` until the viewer allows remote images;
 * - remote image sources rewritten to `data-remote-src` so nothing is even requested
 *   (lib/messages/email-html.ts, before the body reaches this document);
 * - `<base target="_blank">` and `rel="noopener noreferrer"` on links, no referrer at all.
 * The page around it keeps its own CSP, which a srcdoc document inherits as well.
 * This file holds no tokenizer, so the frame can be drawn from html the server already
 * rewrote without loading it (use-rewritten-html.ts); email-document.ts joins the two.
 */
export type SrcDocOptions = { allowRemoteImages?: boolean; scheme?: EmailScheme };

const BODY = "margin:12px;font-family:system-ui,sans-serif";
/** What both inversions leave as they are: pictures are inverted back (clients do not invert images). */
const PICTURES = 'img,picture,video,svg,[background],[style*="url(" i]';
const INVERT = "filter:invert(1) hue-rotate(180deg)";

/**
 * The frame's own styles for a scheme (the iframe element's `color-scheme` does the rest:
 * inside the frame, `prefers-color-scheme` follows it, in Chromium from 129 and Firefox from 105):
 * - light: a white page, whatever the viewer's own scheme;
 * - dark: the page's canvas and text follow the dark scheme unless the email declares a
 *   colour scheme of its own; its `@media (prefers-color-scheme: dark)` styles apply;
 * - inverted (Gmail's apps, approximated): the light page turned negative, hues kept, pictures not;
 * - partial (Outlook.com, approximated): a dark page; the email's light backgrounds and dark
 *   text were already recoloured (rewriteEmailHtml with `recolor`).
 */
export function schemeStyles(scheme: EmailScheme, ownColorScheme = false): string {
  switch (scheme) {
    case "light":
      return `html{color-scheme:light}body{${BODY};background:#fff;color:#111}`;
    case "dark":
      return `${ownColorScheme ? "" : ":root{color-scheme:light dark}"}body{${BODY};background:Canvas;color:CanvasText}`;
    case "inverted":
      return `html{color-scheme:light;background:#fff;${INVERT}}body{${BODY};background:#fff;color:#111}${PICTURES}{${INVERT}}`;
    case "partial":
      return `html{color-scheme:dark}body{${BODY};background:#1f1f1f;color:#e6e6e6}`;
  }
}

/**
 * The document around a body already rewritten by rewriteEmailHtml with the same
 * `allowRemoteImages` (and `recolor` for the partial scheme). `colorScheme`: the email has a
 * `<meta name="color-scheme">` of its own, which the dark scheme leaves in charge.
 */
export function srcDocAround(body: string, opts: SrcDocOptions & { colorScheme?: boolean }): string {
  const images = opts.allowRemoteImages ? "img-src data: cid: https: http:" : "img-src data: cid:";
  const csp = `default-src 'none'; ${images}; style-src 'unsafe-inline'; font-src data:; script-src 'none'; form-action 'none'; base-uri 'none'`;
  return [
    "<!doctype html><html><head>",
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta charset="utf-8"><base target="_blank">',
    `<style>${schemeStyles(opts.scheme ?? "light", opts.colorScheme)}</style>`,
    "</head><body>",
    body,
    "</body></html>",
  ].join("");
}
