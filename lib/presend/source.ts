import type { ChildNode, Document, Element } from "domhandler";
import { DomUtils, ElementType, parseDocument } from "htmlparser2";
import type { Place } from "@/lib/schemas/presend";

/**
 * The html of a draft, parsed once with source offsets, so every finding can say where it
 * is: line and column (1-based, in UTF-16 code units as editors count them), the source
 * there, and a selector-like path to the element.
 */
export type HtmlSource = {
  html: string;
  document: Document;
  /** Every element, in document order. */
  elements: Element[];
  /** Source offsets of every html comment. */
  comments: number[];
  placeAt(offset: number, path?: string): Place;
  placeOf(element: Element): Place;
  /** The element whose start tag begins at this offset, if any. */
  elementStartingAt(offset: number): Element | undefined;
  /** The element's place when one starts at this offset (with its path), else the bare place. */
  placeAtElementOr(offset: number): Place;
  lineColumnToOffset(line: number, column: number): number;
};

const EXCERPT_CHARS = 80;

export function parseSource(html: string): HtmlSource {
  const document = parseDocument(html, { withStartIndices: true, withEndIndices: true, decodeEntities: true });
  const lineStarts = [0];
  for (let i = html.indexOf("\n"); i !== -1; i = html.indexOf("\n", i + 1)) lineStarts.push(i + 1);

  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const placeAt = (offset: number, path?: string): Place => {
    const at = Math.max(0, Math.min(offset, html.length));
    const line = lineOf(at);
    const lineEnd = html.indexOf("\n", at);
    const end = Math.min(lineEnd === -1 ? html.length : lineEnd, at + EXCERPT_CHARS);
    const excerpt = html.slice(at, end).trimEnd() + (end < (lineEnd === -1 ? html.length : lineEnd) ? "…" : "");
    return { line: line + 1, column: at - lineStarts[line] + 1, excerpt, ...(path ? { path } : {}) };
  };

  const elements: Element[] = [];
  const comments: number[] = [];
  const collect = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style) {
        elements.push(node as Element);
        collect((node as Element).children);
      } else if (node.type === ElementType.Comment && node.startIndex != null) comments.push(node.startIndex);
    }
  };
  collect(document.children);

  const placeOf = (element: Element): Place => {
    const start = element.startIndex ?? 0;
    // The excerpt is the start tag (or its beginning), not the rest of the line.
    const tagEnd = html.indexOf(">", start);
    const place = placeAt(start, elementPath(element));
    if (tagEnd !== -1 && tagEnd - start + 1 <= EXCERPT_CHARS) place.excerpt = html.slice(start, tagEnd + 1);
    return place;
  };
  let byStart: Map<number, Element> | null = null;
  const elementStartingAt = (offset: number) => (byStart ??= new Map(elements.map((e) => [e.startIndex ?? -1, e]))).get(offset);

  return {
    html,
    document,
    elements,
    comments,
    placeAt,
    placeOf,
    elementStartingAt,
    placeAtElementOr: (offset) => {
      const element = elementStartingAt(offset);
      return element ? placeOf(element) : placeAt(offset);
    },
    lineColumnToOffset: (line, column) => (lineStarts[line - 1] ?? html.length) + column - 1,
  };
}

/** `body > table > tr > td:nth-of-type(2) > a`: enough to find the element in an editor or devtools. */
export function elementPath(element: Element): string {
  const parts: string[] = [];
  let node: Element | null = element;
  while (node && parts.length < 12) {
    const name: string = node.name;
    if (name === "html") break;
    const parent: ChildNode["parent"] = node.parent;
    const siblings = parent && "children" in parent ? parent.children.filter((c): c is Element => c.type === ElementType.Tag && (c as Element).name === name) : [];
    const id = node.attribs.id;
    let part = id && /^[A-Za-z][\w-]*$/.test(id) ? `${name}#${id}` : name;
    if (!id && siblings.length > 1) part += `:nth-of-type(${siblings.indexOf(node) + 1})`;
    parts.unshift(part);
    if (id) break;
    node = parent && parent.type !== ElementType.Root && "attribs" in parent ? (parent as Element) : null;
  }
  return parts.join(" > ");
}

/** The text a reader sees: no style, script, head or comments; whitespace collapsed. */
export function visibleText(nodes: ChildNode[]): string {
  const out: string[] = [];
  const walk = (list: ChildNode[]) => {
    for (const node of list) {
      if (node.type === ElementType.Text) out.push(node.data);
      else if (node.type === ElementType.Tag) {
        const el = node as Element;
        if (el.name === "head" || el.name === "title") continue;
        if (el.name === "br" || el.name === "p" || el.name === "div" || el.name === "td" || el.name === "tr") out.push(" ");
        walk(el.children);
      }
    }
  };
  walk(nodes);
  return out.join("").replace(/\s+/g, " ").trim();
}

export const textOf = (element: Element) => DomUtils.textContent(element).replace(/\s+/g, " ").trim();

/** Merge variables (`{{name}}`, `{{{name}}}`) are filled per message, so the checks cannot judge them. */
export const hasMergeVariable = (value: string) => /\{\{[^}]*\}\}/.test(value);
