/**
 * The srcdoc of an untrusted email (inbound mail, a template preview). Defence in depth
 * around the iframe's sandbox (no scripts, no same origin):
 * - a CSP `<meta>` first in the document: no scripts, no fetches, no forms; images only
 *   from `data:`/`cid:` until the viewer allows remote images;
 * - remote image sources rewritten to `data-remote-src` so nothing is even requested
 *   (email-html.ts, before the body reaches this document);
 * - `<base target="_blank">` and `rel="noopener noreferrer"` on links, no referrer at all.
 * The page around it keeps its own CSP, which a srcdoc document inherits as well.
 * This file holds no tokenizer, so the frame can be drawn from html the server already
 * rewrote without loading it (use-rewritten-html.ts); email-document.ts joins the two.
 */

/** The document around a body already rewritten by rewriteEmailHtml with the same `allowRemoteImages`. */
export function srcDocAround(body: string, opts: { allowRemoteImages?: boolean }): string {
  const images = opts.allowRemoteImages ? "img-src data: cid: https: http:" : "img-src data: cid:";
  const csp = `default-src 'none'; ${images}; style-src 'unsafe-inline'; font-src data:; script-src 'none'; form-action 'none'; base-uri 'none'`;
  return [
    "<!doctype html><html><head>",
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta charset="utf-8"><base target="_blank">',
    "<style>html{color-scheme:light}body{margin:12px;font-family:system-ui,sans-serif;background:#fff;color:#111}</style>",
    "</head><body>",
    body,
    "</body></html>",
  ].join("");
}
