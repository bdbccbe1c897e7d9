/**
 * Which namespace a browser's tree builder is in while it reads an email, so the tokenizer can
 * follow it (html-tokenizer.ts): `<style>`, `<title>`, `<textarea>`… hold raw text only as HTML
 * elements; inside `<svg>` or `<math>` they hold tags, and CDATA sections exist only there.
 * A stack of open elements, the way the HTML standard's tree construction keeps one, reduced
 * to what decides the namespace: foreign roots, HTML integration points (foreignObject, desc,
 * title; MathML's text integration points and annotation-xml with an HTML encoding), the tags
 * that break out of foreign content, void elements, and which end tags close what. Left out:
 * implied end tags (`<p><div>`), table fostering and the adoption agency's rearranging; where
 * those matter the model is wrong only about HTML elements, and the frame's CSP still stands.
 * Every operation is amortised constant time (no walk down the stack): each name keeps the
 * positions of its open elements, each entry the index of the nearest barrier below it.
 */
export type Namespace = "html" | "svg" | "math";

type Entry = {
  name: string;
  ns: Namespace;
  /**
   * An SVG/MathML element whose children are read as HTML: "html" (foreignObject, desc, title,
   * annotation-xml with an HTML encoding) for all of them, "text" (mi, mo, mn, ms, mtext) for
   * all but mglyph and malignmark.
   */
  integration: "html" | "text" | null;
  /** Index of the nearest entry at or below this one that stops an end tag's search. */
  special: number;
  /** The same for end tags that look for an element "in scope". */
  scope: number;
  /** Index of the lowest entry of the foreign run this entry ends (its own index if HTML). */
  foreignRun: number;
};

const words = (s: string) => new Set(s.split(" "));

const VOID = words("area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr html body head");
/** Start tags that leave foreign content (the standard's list; `font` only with these attributes). */
const BREAKOUT = words("b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var");
export const FONT_BREAKOUT_ATTRIBUTES = words("color face size");
const MATHML_TEXT_INTEGRATION = words("mi mo mn ms mtext");
const SVG_HTML_INTEGRATION = words("foreignobject desc title");
const SCOPE = words("applet caption html table td th marquee object template");
/** End tags the standard closes only when their element is "in scope"; any other stops at a special element. */
const END_IN_SCOPE = words(
  "address article aside blockquote button center details dialog dir div dl fieldset figcaption figure footer form header hgroup listing main menu nav ol pre search section summary ul li dd dt h1 h2 h3 h4 h5 h6 p applet marquee object a b big code em font i nobr s small strike strong tt u",
);
const SPECIAL = words(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);

export type StartTag = { name: string; fontBreakout: boolean; htmlEncoding: boolean };

export class OpenElements {
  private readonly stack: Entry[] = [];
  // Where the open elements of each name are, bottom first: HTML ones, and SVG and MathML ones.
  private readonly htmlPositions = new Map<string, number[]>();
  private readonly foreignPositions = new Map<string, number[]>();

  private get top(): Entry | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** The current node is an SVG or MathML element (where `<![CDATA[` opens a CDATA section). */
  inForeignContent(): boolean {
    const top = this.top;
    return top !== undefined && top.ns !== "html";
  }

  /** The name of the current node when it is an element of `ns`. */
  current(ns: Namespace): string | undefined {
    const top = this.top;
    return top?.ns === ns ? top.name : undefined;
  }

  /** The namespace a start tag's element gets, before any breakout pops (nothing changes). */
  namespaceOf(tag: StartTag): Namespace {
    const top = this.top;
    if (!top || top.ns === "html" || top.integration === "html") return htmlRules(tag.name);
    if (top.integration === "text" && tag.name !== "mglyph" && tag.name !== "malignmark") return htmlRules(tag.name);
    if (top.ns === "math" && top.name === "annotation-xml" && tag.name === "svg") return "svg";
    if (BREAKOUT.has(tag.name) || (tag.name === "font" && tag.fontBreakout)) return "html";
    return top.ns;
  }

  /**
   * A start tag the tree builder has read: returns its element's namespace. A foreign element's
   * `/>` closes it; an HTML element's is ignored, as browsers do.
   */
  start(tag: StartTag, selfClosing: boolean): Namespace {
    const ns = this.namespaceOf(tag);
    if (ns === "html") this.leaveForeignContent();
    if (ns === "html" ? VOID.has(tag.name) : selfClosing) return ns;
    const index = this.stack.length;
    const below = this.top;
    const integration = integrationOf(ns, tag);
    const special = integration !== null || (ns === "html" && SPECIAL.has(tag.name));
    const scope = integration !== null || (ns === "html" && SCOPE.has(tag.name));
    this.stack.push({
      name: tag.name,
      ns,
      integration,
      special: special ? index : (below?.special ?? -1),
      scope: scope ? index : (below?.scope ?? -1),
      foreignRun: ns !== "html" && below && below.ns !== "html" ? below.foreignRun : index,
    });
    const positions = ns === "html" ? this.htmlPositions : this.foreignPositions;
    const list = positions.get(tag.name);
    if (list) list.push(index);
    else positions.set(tag.name, [index]);
    return ns;
  }

  /** An end tag the tree builder has read. */
  end(name: string): void {
    const top = this.top;
    if (top && top.ns !== "html") {
      // `</br>` and `</p>` break out, as their start tags do; `</br>` is then read as `<br>`.
      if (name === "br" || name === "p") this.leaveForeignContent();
      else {
        // Foreign content closes the nearest open foreign element of that name above the first HTML one.
        const at = last(this.foreignPositions, name);
        if (at >= top.foreignRun) return this.popTo(at);
      }
    }
    // HTML's rule: the nearest open HTML element of that name, unless a barrier stands above it.
    const at = last(this.htmlPositions, name);
    const current = this.top;
    if (at < 0 || !current) return;
    const barrier = END_IN_SCOPE.has(name) ? current.scope : current.special;
    if (barrier <= at) this.popTo(at);
  }

  /** Pops foreign elements until the current node is HTML or an integration point. */
  private leaveForeignContent() {
    for (let top = this.top; top && top.ns !== "html" && top.integration === null; top = this.top) this.pop();
  }

  private popTo(index: number) {
    while (this.stack.length > index) this.pop();
  }

  private pop() {
    const entry = this.stack.pop()!;
    (entry.ns === "html" ? this.htmlPositions : this.foreignPositions).get(entry.name)!.pop();
  }
}

function last(positions: Map<string, number[]>, name: string): number {
  const list = positions.get(name);
  return list?.length ? list[list.length - 1] : -1;
}

function integrationOf(ns: Namespace, tag: StartTag): Entry["integration"] {
  if (ns === "svg") return SVG_HTML_INTEGRATION.has(tag.name) ? "html" : null;
  if (ns !== "math") return null;
  if (MATHML_TEXT_INTEGRATION.has(tag.name)) return "text";
  return tag.name === "annotation-xml" && tag.htmlEncoding ? "html" : null;
}

function htmlRules(name: string): Namespace {
  return name === "svg" ? "svg" : name === "math" ? "math" : "html";
}
