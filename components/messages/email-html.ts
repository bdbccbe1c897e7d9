import { QuoteType, Tokenizer, type TokenizerCallbacks } from "./html-tokenizer";
import { blockCssUrls, isRemoteSrcset, isRemoteUrl } from "./remote-urls";

/**
 * The untrusted html of an email, made safer to show, in one pass of htmlparser2's tokenizer
 * (linear in the input, whatever it holds: `<a ` repeated 300,000 times is no slower per
 * byte than a newsletter). Only the tokenizer is used, not the parser or a DOM, so the
 * browser bundle stays small and nothing is built per tag. The input's own bytes are kept;
 * the changes are spliced in where the tokenizer reports a tag or an attribute:
 * - every link (`<a>`, `<area>`) gets `rel="noopener noreferrer"` first among its attributes
 *   (with a duplicate attribute, HTML keeps the first);
 * - `<meta http-equiv>` is renamed, so a refresh cannot navigate the frame or ping a tracker;
 * - with `blockImages`, image sources that would be fetched (src, srcset, poster, background,
 *   SVG image href) are renamed `data-remote-<name>` and remote CSS `url(…)`s in style
 *   attributes and `<style>` elements point at `about:blank#remote-…`; `remote` counts them.
 * The frame's CSP is what forbids remote loads; this keeps them from even being attempted
 * and counts them for "Show remote images".
 */
export type RewrittenHtml = { html: string; remote: number };

const IMAGE_TAGS = new Set(["img", "image", "input", "source", "video"]);
const IMAGE_ATTRS = new Set(["src", "srcset", "poster", "background"]);
const LINK_TAGS = new Set(["a", "area"]);
const LINK_REL = ' rel="noopener noreferrer"';

function isImageAttribute(tag: string, attr: string): boolean {
  if (attr === "background") return true;
  if (tag === "image" && (attr === "href" || attr === "xlink:href")) return true;
  return IMAGE_TAGS.has(tag) && IMAGE_ATTRS.has(attr);
}

// A single character class: linear, and only run on a style value that changed.
const escapeAttribute = (value: string) => value.replace(/[&"]/g, (c) => (c === "&" ? "&amp;" : "&quot;"));

export function rewriteEmailHtml(html: string, opts: { blockImages: boolean }): RewrittenHtml {
  const out: string[] = [];
  let copied = 0; // html[0, copied) is already in `out`
  let remote = 0;
  let tag = "";
  let inStyle = false;
  let attr = "";
  let attrStart = 0;
  let attrEnd = 0;
  let value = "";

  const copyTo = (index: number) => {
    out.push(html.slice(copied, index));
    copied = index;
  };

  function attributeEnd(quote: QuoteType, endIndex: number) {
    if (tag === "meta" && attr === "http-equiv") {
      copyTo(attrStart);
      out.push("data-blocked-http-equiv");
      copied = attrEnd;
      return;
    }
    if (!opts.blockImages || quote === QuoteType.NoValue) return;
    if (isImageAttribute(tag, attr)) {
      if (attr === "srcset" ? isRemoteSrcset(value) : isRemoteUrl(value)) {
        copyTo(attrStart);
        out.push(`data-remote-${attr}`);
        copied = attrEnd;
        remote++;
      }
    } else if (attr === "style") {
      const blocked = blockCssUrls(value);
      if (blocked.remote > 0) {
        copyTo(attrStart);
        out.push(`style="${escapeAttribute(blocked.css)}"`);
        copied = endIndex;
        remote += blocked.remote;
      }
    }
  }

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      if (tag === "style") inStyle = true;
      if (LINK_TAGS.has(tag)) {
        copyTo(end);
        out.push(LINK_REL);
      }
    },
    onattribname(start, end) {
      attr = html.slice(start, end).toLowerCase();
      attrStart = start;
      attrEnd = end;
      value = "";
    },
    onattribdata(start, end) {
      value += html.slice(start, end);
    },
    onattribentity(codepoint) {
      value += String.fromCodePoint(codepoint);
    },
    onattribend: attributeEnd,
    onclosetag(start, end) {
      if (html.slice(start, end).toLowerCase() === "style") inStyle = false;
    },
    ontext(start, end) {
      // Inside <style> the tokenizer reports the whole sheet as one text (it decodes nothing there).
      if (!inStyle || !opts.blockImages) return;
      const blocked = blockCssUrls(html.slice(start, end));
      if (blocked.remote === 0) return;
      copyTo(start);
      out.push(blocked.css);
      copied = end;
      remote += blocked.remote;
    },
    ontextentity() {},
    onopentagend() {},
    onselfclosingtag() {},
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };

  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  if (copied === 0) return { html, remote };
  copyTo(html.length);
  return { html: out.join(""), remote };
}
