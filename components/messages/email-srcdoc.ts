/**
 * The srcdoc of an untrusted email (inbound mail, a template preview). Defence in depth
 * around the iframe's sandbox (no scripts, no same origin):
 * - a CSP `<meta>` first in the document: no scripts, no fetches, no forms; images only
 *   from `data:`/`cid:` until the viewer allows remote images;
 * - remote image sources rewritten to `data-remote-src` so nothing is even requested;
 * - `<base target="_blank">` and `rel="noopener noreferrer"` on links, no referrer at all.
 * The page around it keeps its own CSP, which a srcdoc document inherits as well.
 */
const REMOTE = String.raw`(?:https?:)?\/\/`;
const IMG_SRC = new RegExp(String.raw`(<(?:img|image|input|source|video)\b[^>]*?\s)(src|srcset|poster|background)(\s*=\s*["']?\s*${REMOTE})`, "gi");
const BACKGROUND_ATTR = new RegExp(String.raw`(<[a-z][^>]*?\s)(background)(\s*=\s*["']?\s*${REMOTE})`, "gi");
const CSS_URL = new RegExp(String.raw`url\(\s*(["']?)\s*${REMOTE}`, "gi");
const ANCHOR = /<a\b/gi;

export function blockRemoteImages(html: string): string {
  let out = html;
  // One attribute per tag per pass (a match consumes the tag's start): repeat until stable.
  for (let pass = 0; pass < 8; pass++) {
    const next = out
      .replace(IMG_SRC, (_m, before: string, attr: string, rest: string) => `${before}data-remote-${attr.toLowerCase()}${rest}`)
      .replace(BACKGROUND_ATTR, (_m, before: string, _attr: string, rest: string) => `${before}data-remote-background${rest}`);
    if (next === out) break;
    out = next;
  }
  return out.replace(CSS_URL, (_m, quote: string) => `url(${quote}about:blank#remote-`);
}

const MARKER = /data-remote-|about:blank#remote-/g;
/** How many remote image references the viewer would allow (for "Show 3 remote images"). */
export function countRemoteImages(html: string): number {
  return (blockRemoteImages(html).match(MARKER)?.length ?? 0) - (html.match(MARKER)?.length ?? 0);
}

export function emailSrcDoc(html: string, opts: { allowRemoteImages?: boolean } = {}): string {
  const images = opts.allowRemoteImages ? "img-src data: cid: https: http:" : "img-src data: cid:";
  const csp = `default-src 'none'; ${images}; style-src 'unsafe-inline'; font-src data:; script-src 'none'; form-action 'none'; base-uri 'none'`;
  // Our rel comes first in each tag: with a duplicate attribute, HTML keeps the first.
  const body = (opts.allowRemoteImages ? html : blockRemoteImages(html)).replace(ANCHOR, '<a rel="noopener noreferrer"');
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
