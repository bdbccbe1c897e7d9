import { browserTokenizer, QuoteType, type TokenizerCallbacks } from "./html-tokenizer";
import { FONT_BREAKOUT_ATTRIBUTES, OpenElements, type StartTag } from "./open-elements";
import { cssHasDarkStyles, metaNamesDark, partialDarkColor, recolorCssPartially } from "@/lib/messages/dark-mode";
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
 * - with `recolor`, the colours of style attributes, `<style>` elements and the bgcolor,
 *   `<font color>` and `<body text>` attributes change as Outlook.com's dark mode changes them
 *   (lib/messages/dark-mode.ts), for the preview's "Dark, partial" approximation.
 * The frame's CSP is what forbids remote loads; this keeps them from even being attempted
 * and counts them for "Show remote images". On the way it notes whether the email has dark
 * styles of its own (`darkStyles`) and declares a colour scheme (`colorScheme`), for the
 * dark-mode preview (email-srcdoc.ts).
 * The tokenizer reads as a browser does (html-tokenizer.ts): a stack of open elements
 * (open-elements.ts) tells it where raw text is, so inside `<svg>`/`<math>` a `<style>` holds
 * tags (`<svg><style><img src=…>` is an image) and its text, entities decoded, is CSS. A `url(`
 * split by a tag, comment or CDATA section inside an SVG `<style>` is left to the CSP.
 */
export type RewrittenHtml = {
  html: string;
  remote: number;
  /** `@media (prefers-color-scheme: dark)`, Outlook.com's dark selectors, or a colour scheme naming dark. */
  darkStyles: boolean;
  /** A `<meta name="color-scheme">` of its own, which the preview must not override with its own. */
  colorScheme: boolean;
};
export type RewriteOptions = { blockImages: boolean; recolor?: boolean };

/** Attributes holding a colour, by element (`*`: any), and what the colour paints. */
function colorAttribute(tag: string, attr: string): "background" | "text" | null {
  if (attr === "bgcolor") return "background";
  if ((tag === "font" && attr === "color") || (tag === "body" && attr === "text")) return "text";
  return null;
}

const IMAGE_TAGS = new Set(["img", "image", "input", "source", "video"]);
const IMAGE_ATTRS = new Set(["src", "srcset", "poster", "background"]);
const LINK_TAGS = new Set(["a", "area"]);
const LINK_REL = ' rel="noopener noreferrer"';
/** HTML elements whose content is raw text up to their end tag (scripts are off in the frame, so not noscript). */
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "title", "textarea"]);

function isImageAttribute(tag: string, attr: string): boolean {
  if (attr === "background") return true;
  if (tag === "image" && (attr === "href" || attr === "xlink:href")) return true;
  return IMAGE_TAGS.has(tag) && IMAGE_ATTRS.has(attr);
}

// Single character classes: linear, and only run on CSS that changed.
const escapeAttribute = (value: string) => value.replace(/[&"]/g, (c) => (c === "&" ? "&amp;" : "&quot;"));
const escapeText = (value: string) => value.replace(/[&<]/g, (c) => (c === "&" ? "&amp;" : "&lt;"));

export function rewriteEmailHtml(html: string, opts: RewriteOptions): RewrittenHtml {
  const out: string[] = [];
  let copied = 0; // html[0, copied) is already in `out`
  let remote = 0;
  let darkStyles = false;
  let colorScheme = false;
  // The name and content of the `<meta>` being read.
  let metaName = "";
  let metaContent = "";
  let tag = "";
  const opening: StartTag = { name: "", fontBreakout: false, htmlEncoding: false }; // the start tag being read, for the tree
  let attr = "";
  let attrStart = 0;
  let attrEnd = 0;
  let value = "";
  const tree = new OpenElements();
  // The text of a `<style>` read since the last other token: html[start, end), `css` decoded.
  let sheet: { start: number; end: number; css: string; escape: boolean } | null = null;

  const copyTo = (index: number) => {
    out.push(html.slice(copied, index));
    copied = index;
  };

  /** Whether text here is CSS, and how it is written: raw (HTML's `<style>`) or markup (an SVG one's). */
  function styleSheet(): "raw" | "markup" | null {
    if (tree.current("html") === "style") return "raw";
    return tree.current("svg") === "style" || tree.current("math") === "style" ? "markup" : null;
  }

  function styleText(start: number, end: number, text: string, kind: "raw" | "markup") {
    if (sheet) {
      sheet.end = end;
      sheet.css += text;
    } else sheet = { start, end, css: text, escape: kind === "markup" };
  }

  function endSheet() {
    if (!sheet) return;
    if (!darkStyles && cssHasDarkStyles(sheet.css)) darkStyles = true;
    const css = changedCss(sheet.css);
    if (css !== null) {
      copyTo(sheet.start);
      out.push(sheet.escape ? escapeText(css) : css);
      copied = sheet.end;
    }
    sheet = null;
  }

  /** CSS recoloured (with `recolor`) and its remote URLs blocked (with `blockImages`); null when unchanged. */
  function changedCss(css: string): string | null {
    const recolored = opts.recolor ? recolorCssPartially(css) : null;
    let next = recolored ?? css;
    let changed = recolored !== null;
    if (opts.blockImages) {
      const blocked = blockCssUrls(next);
      if (blocked.remote > 0) {
        next = blocked.css;
        changed = true;
        remote += blocked.remote;
      }
    }
    return changed ? next : null;
  }

  function attributeEnd(quote: QuoteType, endIndex: number) {
    if (tag === "font" && FONT_BREAKOUT_ATTRIBUTES.has(attr)) opening.fontBreakout = true;
    if (tag === "annotation-xml" && attr === "encoding") opening.htmlEncoding = ["text/html", "application/xhtml+xml"].includes(value.toLowerCase());
    if (tag === "meta" && attr === "name") metaName = value.trim().toLowerCase();
    if (tag === "meta" && attr === "content") metaContent = value;
    if (tag === "meta" && attr === "http-equiv") {
      copyTo(attrStart);
      out.push("data-blocked-http-equiv");
      copied = attrEnd;
      return;
    }
    if (quote === QuoteType.NoValue) return;
    const role = opts.recolor ? colorAttribute(tag, attr) : null;
    const color = role && partialDarkColor(value, role);
    if (color) {
      copyTo(attrStart);
      out.push(`${attr}="${color}"`);
      copied = endIndex;
      return;
    }
    if (attr === "style") {
      const css = changedCss(value);
      if (css !== null) {
        copyTo(attrStart);
        out.push(`style="${escapeAttribute(css)}"`);
        copied = endIndex;
      }
      return;
    }
    if (!opts.blockImages) return;
    if (isImageAttribute(tag, attr)) {
      if (attr === "srcset" ? isRemoteSrcset(value) : isRemoteUrl(value)) {
        copyTo(attrStart);
        out.push(`data-remote-${attr}`);
        copied = attrEnd;
        remote++;
      }
    }
  }

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      endSheet();
      tag = html.slice(start, end).toLowerCase();
      opening.name = tag;
      opening.fontBreakout = false;
      opening.htmlEncoding = false;
      metaName = "";
      metaContent = "";
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
    onopentagend() {
      if (tag === "meta" && (metaName === "color-scheme" || metaName === "supported-color-schemes")) {
        colorScheme = true;
        if (metaNamesDark(metaContent)) darkStyles = true;
      }
      const ns = tree.start(opening, false);
      tokenizer.rawText(ns !== "html" ? null : RAW_TEXT.has(tag) ? tag : tag === "plaintext" ? "" : null);
    },
    onselfclosingtag() {
      tree.start(opening, true); // only foreign elements get here: an HTML element's `/>` is read as `>`
    },
    onclosetag(start, end) {
      endSheet();
      tree.end(html.slice(start, end).toLowerCase());
    },
    ontext(start, end) {
      const kind = styleSheet();
      if (kind) styleText(start, end, html.slice(start, end), kind);
    },
    ontextentity(codepoint, end) {
      const kind = styleSheet();
      // Where the entity starts is not reported; its `&` is the last one before its end.
      if (kind) styleText(sheet ? sheet.start : html.lastIndexOf("&", end - 1), end, String.fromCodePoint(codepoint), kind);
    },
    oncdata(start, end, offset) {
      endSheet();
      // In SVG a CDATA section is text too: a piece of CSS of its own, written raw.
      if (styleSheet()) styleText(start, end - offset, html.slice(start, end - offset), "raw");
      endSheet();
    },
    oncomment: endSheet,
    ondeclaration: endSheet,
    onprocessinginstruction: endSheet,
    onend: endSheet,
  };

  const tokenizer = browserTokenizer(callbacks, {
    inForeignContent: () => tree.inForeignContent(),
    honoursSelfClosing: () => tree.namespaceOf(opening) !== "html",
  });
  tokenizer.write(html);
  tokenizer.end();
  if (copied === 0) return { html, remote, darkStyles, colorScheme };
  copyTo(html.length);
  return { html: out.join(""), remote, darkStyles, colorScheme };
}
