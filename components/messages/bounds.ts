/**
 * How much of an email the message screens render. Mail is written by strangers: megabytes
 * of markup, or one line of a million characters, would hold the viewer's tab while the
 * browser builds and lays it out. Past these bounds a screen shows a notice or the start,
 * and offers the whole as a download. Each bound is checked before any work on the text.
 */

/** The largest html a preview frame renders (characters; as long as a reply's html may be). */
export const MAX_PREVIEW_HTML_CHARS = 2_000_000;
/** Text (a plain-text body, an html source) laid out at once. */
export const SHOWN_TEXT_CHARS = 100_000;
export const SHOWN_HEADERS = 200;
export const SHOWN_HEADER_CHARS = 2_000;

export const isPreviewable = (html: string) => html.length <= MAX_PREVIEW_HTML_CHARS;

/** The first `max` characters, and how many were left out. */
export function clip(text: string, max: number): { shown: string; omitted: number } {
  return text.length <= max ? { shown: text, omitted: 0 } : { shown: text.slice(0, max), omitted: text.length - max };
}

export const count = (n: number) => n.toLocaleString("en-US");
