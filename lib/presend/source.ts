import type { ChildNode, Document, Element } from "domhandler";
import { DomHandler, ElementType, Parser } from "htmlparser2";
import { AppError } from "@/lib/errors";
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

/**
 * Elements nested deeper than this are refused. Chrome's parser stops nesting at the same depth
 * (it adds deeper elements as siblings), no email layout comes near it, and htmlparser2 keeps
 * its open elements in an array it shifts at every tag, so each tag costs the current depth:
 * 200,000 nested <div>s took 35 s to parse. Under this bound a tag costs at most 512 steps.
 */
export const MAX_NESTING = 512;

class NestingTooDeep extends Error {}

/** DomHandler that stops the parse past MAX_NESTING open elements. */
class BoundedHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    // tagStack holds the root and every open element.
    if (this.tagStack.length > MAX_NESTING) throw new NestingTooDeep();
    super.onopentag(name, attribs);
  }
}

/** The html as a document with source offsets; a 400 naming `draft.html` when it nests past MAX_NESTING. */
export function parseBounded(html: string): Document {
  const options = { withStartIndices: true, withEndIndices: true, decodeEntities: true };
  const handler = new BoundedHandler(undefined, options);
  try {
    new Parser(handler, options).end(html);
  } catch (e) {
    if (!(e instanceof NestingTooDeep)) throw e;
    throw new AppError(
      400,
      "validation_error",
      `draft.html: elements are nested more than ${MAX_NESTING} deep, which browsers and email clients do not show as nested; the checks stop there.`,
      "draft.html",
    );
  }
  return handler.root;
}

export function parseSource(html: string): HtmlSource {
  const document = parseBounded(html);
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
    // From the line table, not a scan: a one-line html of a megabyte would be scanned once per place.
    const lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1] - 1 : html.length;
    const end = Math.min(lineEnd, at + EXCERPT_CHARS);
    const excerpt = html.slice(at, end).trimEnd() + (end < lineEnd ? "…" : "");
    return { line: line + 1, column: at - lineStarts[line] + 1, excerpt, ...(path ? { path } : {}) };
  };

  const { elements, comments } = collect(document);
  const paths = pathBuilder();

  const placeOf = (element: Element): Place => {
    const start = element.startIndex ?? 0;
    // The excerpt is the start tag when it is short (only that much is looked at), not the rest of the line.
    const tagEnd = html.slice(start, start + EXCERPT_CHARS).indexOf(">");
    const place = placeAt(start, paths(element));
    if (tagEnd !== -1) place.excerpt = html.slice(start, start + tagEnd + 1);
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

const isElement = (node: ChildNode): node is Element => node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style;

/**
 * Every element in document order and every comment's offset. A loop over an explicit stack,
 * not recursion: html nested a hundred thousand deep is a few hundred kilobytes of text.
 */
function collect(document: Document): { elements: Element[]; comments: number[] } {
  const elements: Element[] = [];
  const comments: number[] = [];
  const stack: ChildNode[] = [...document.children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (isElement(node)) {
      elements.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    } else if (node.type === ElementType.Comment && node.startIndex != null) comments.push(node.startIndex);
  }
  return { elements, comments };
}

/** An element's place among its parent's children of the same name: `index` of `of`. */
type TypePosition = { index: number; of: number };

/**
 * `elementPath` for the elements of one document. The nth-of-type of every child of a parent
 * is counted in one pass over that parent's children, the first time one of them is asked
 * for, so the paths of all elements cost time in proportion to the document, not to the
 * square of a parent's children (a list of 30,000 links took minutes).
 */
export function pathBuilder(): (element: Element) => string {
  const positions = new WeakMap<Element, TypePosition>();
  const counted = new WeakSet<object>();
  const positionOf = (element: Element): TypePosition => {
    const parent = element.parent;
    if (parent && !counted.has(parent)) {
      counted.add(parent);
      const seen = new Map<string, number>();
      const siblings = parent.children.filter((c): c is Element => c.type === ElementType.Tag);
      for (const sibling of siblings) seen.set(sibling.name, (seen.get(sibling.name) ?? 0) + 1);
      const next = new Map<string, number>();
      for (const sibling of siblings) {
        const index = (next.get(sibling.name) ?? 0) + 1;
        next.set(sibling.name, index);
        positions.set(sibling, { index, of: seen.get(sibling.name)! });
      }
    }
    return positions.get(element) ?? { index: 1, of: 1 };
  };
  return (element) => elementPathWith(element, positionOf);
}

/** `body > table > tr > td:nth-of-type(2) > a`: enough to find the element in an editor or devtools. */
export function elementPath(element: Element): string {
  return pathBuilder()(element);
}

function elementPathWith(element: Element, positionOf: (element: Element) => TypePosition): string {
  const parts: string[] = [];
  let node: Element | null = element;
  while (node && parts.length < 12) {
    const name: string = node.name;
    if (name === "html") break;
    const parent: ChildNode["parent"] = node.parent;
    const id = node.attribs.id;
    let part = id && /^[A-Za-z][\w-]*$/.test(id) ? `${name}#${id}` : name;
    if (!id) {
      const { index, of } = positionOf(node);
      if (of > 1) part += `:nth-of-type(${index})`;
    }
    parts.unshift(part);
    if (id) break;
    node = parent && parent.type !== ElementType.Root && "attribs" in parent ? (parent as Element) : null;
  }
  return parts.join(" > ");
}

/** The text a reader sees: no style, script, head or comments; whitespace collapsed. */
export function visibleText(nodes: ChildNode[]): string {
  const out: string[] = [];
  const stack: ChildNode[] = [...nodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === ElementType.Text) out.push(node.data);
    else if (node.type === ElementType.Tag) {
      const el = node as Element;
      if (el.name === "head" || el.name === "title") continue;
      if (el.name === "br" || el.name === "p" || el.name === "div" || el.name === "td" || el.name === "tr") out.push(" ");
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
    }
  }
  return out.join("").replace(/\s+/g, " ").trim();
}

/** A link's text is judged (a domain it shows, "unsubscribe") and shown (200 characters) from its beginning only. */
export const LINK_TEXT_CHARS = 1000;

/**
 * The text of every `<a>`, whitespace collapsed, its first LINK_TEXT_CHARS characters, in one
 * pass over the document. A text belongs to the innermost link around it, as in a browser,
 * where a link cannot hold another: asking each link for all the text inside it cost the
 * square of the depth for links nested in links.
 */
export function linkTexts(document: Document): Map<Element, string> {
  const raw = new Map<Element, { parts: string[]; length: number }>();
  const open: Element[] = [];
  // LEAVE after a link's children: the link is closed there.
  const stack: (ChildNode | typeof LEAVE)[] = [...document.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node === LEAVE) {
      open.pop();
      continue;
    }
    if (node.type === ElementType.Text) {
      const link = open.at(-1);
      const text = link && raw.get(link)!;
      // Raw text is kept up to four times the limit, so long runs of whitespace still leave enough once collapsed.
      const room = text ? LINK_TEXT_CHARS * 4 - text.length : 0;
      if (!text || room <= 0) continue;
      text.parts.push(node.data.slice(0, room));
      text.length += Math.min(room, node.data.length);
      continue;
    }
    if (!("children" in node)) continue;
    if (isElement(node) && node.name === "a") {
      raw.set(node, { parts: [], length: 0 });
      open.push(node);
      stack.push(LEAVE);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  const texts = new Map<Element, string>();
  for (const [link, { parts }] of raw) texts.set(link, parts.join("").replace(/\s+/g, " ").trim().slice(0, LINK_TEXT_CHARS));
  return texts;
}
const LEAVE = Symbol("leave");

/**
 * Merge variables (`{{name}}`, `{{{name}}}`) are filled per message, so the checks cannot judge
 * them. Found with indexOf rather than /\{\{[^}]*\}\}/, which rescans to the end of the value
 * from every "{{" and took the square of a long attribute's length.
 */
export function hasMergeVariable(value: string): boolean {
  for (let open = value.indexOf("{{"); open !== -1; ) {
    const close = value.indexOf("}", open + 2);
    if (close === -1) return false;
    if (value[close + 1] === "}") return true;
    open = value.indexOf("{{", close + 1);
  }
  return false;
}
