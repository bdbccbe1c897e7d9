/**
 * Which URLs in an email would make the viewer's browser fetch something, read the way a
 * browser reads them, in time linear in the text (no regular expressions: the input is
 * written by strangers).
 */

const INLINE_SCHEMES = new Set(["data", "cid", "about"]);
// A scheme longer than this is not one we keep inline, so the look-ahead stays bounded.
const MAX_SCHEME = 8;

const isAsciiWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/**
 * True unless the URL stays inside the message: empty, a fragment (`#id`, SVG's
 * `url(#gradient)`), or a `data:`, `cid:` or `about:` URL. Relative URLs count as remote:
 * in a srcdoc frame they resolve against the dashboard's own address. Like a browser, it
 * skips leading spaces and control characters and ignores tabs and line breaks anywhere
 * (`ht\ntps:` is `https:`); past those it reads no further than a scheme's length.
 */
export function isRemoteUrl(url: string): boolean {
  let scheme = "";
  let started = false;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (!started && c <= 0x20) continue;
    if (!started && c === 0x23) return false; // "#"
    started = true;
    if (c === 0x3a) return !INLINE_SCHEMES.has(scheme); // ":"
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    const schemeChar = letter || (scheme.length > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e));
    if (!schemeChar || scheme.length >= MAX_SCHEME) return true;
    scheme += String.fromCharCode(c | 0x20);
  }
  return started;
}

/** True when any candidate of a `srcset` (`a.png 1x, https://x/b.png 2x`) is remote. */
export function isRemoteSrcset(srcset: string): boolean {
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isAsciiWhitespace(srcset.charCodeAt(i)) || srcset[i] === ",")) i++;
    const start = i;
    while (i < srcset.length && !isAsciiWhitespace(srcset.charCodeAt(i))) i++;
    let end = i;
    // A URL followed directly by a comma has no descriptors; the comma is not part of it.
    const bare = end > start && srcset[end - 1] === ",";
    while (end > start && srcset[end - 1] === ",") end--;
    if (end > start && isRemoteUrl(srcset.slice(start, end))) return true;
    if (!bare) while (i < srcset.length && srcset[i] !== ",") i++; // the descriptors
  }
  return false;
}

export const BLOCKED_URL_PREFIX = "about:blank#remote-";

/**
 * `url(…)` references in CSS (a style attribute or a `<style>` element) with every remote one
 * pointed at `about:blank#remote-…`, so the browser requests nothing; `remote` counts them.
 * Each character is looked at a bounded number of times: the scan resumes after the URL it
 * has just read. (`image-set("…")` strings and `@import "…"` are left to the frame's CSP.)
 */
export function blockCssUrls(css: string): { css: string; remote: number } {
  const lower = css.toLowerCase();
  const out: string[] = [];
  let copied = 0;
  let remote = 0;
  let from = 0;
  for (;;) {
    const at = lower.indexOf("url(", from);
    if (at === -1) break;
    let i = at + 4;
    while (i < css.length && isAsciiWhitespace(css.charCodeAt(i))) i++;
    const quote = css[i] === '"' || css[i] === "'" ? css[i] : null;
    const start = quote ? i + 1 : i;
    let end = start;
    if (quote) {
      end = css.indexOf(quote, start);
      if (end === -1) end = css.length;
    } else {
      while (end < css.length && css[end] !== ")" && !isAsciiWhitespace(css.charCodeAt(end))) end++;
    }
    if (isRemoteUrl(css.slice(start, end))) {
      out.push(css.slice(copied, start), BLOCKED_URL_PREFIX);
      copied = start;
      remote++;
    }
    from = Math.max(end, at + 4);
  }
  if (remote === 0) return { css, remote };
  out.push(css.slice(copied));
  return { css: out.join(""), remote };
}
