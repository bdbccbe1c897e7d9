/**
 * htmlparser2's tokenizer on its own, for the browser. The package exports only its index,
 * which also re-exports the DOM handler, DomUtils and the serializer; the bundler kept them
 * all (a second copy of the entities tables and a Buffer polyfill: 58 KB gzipped in the
 * email frame's chunk instead of about 25). Its published file is imported directly instead.
 */
import Tokenizer, { type Callbacks } from "../../node_modules/htmlparser2/dist/esm/Tokenizer.js";

export { QuoteType, type Callbacks as TokenizerCallbacks } from "../../node_modules/htmlparser2/dist/esm/Tokenizer.js";

/** What the tokenizer asks the tree (open-elements.ts) it cannot know itself. */
export type TreeHooks = {
  /** The current node is SVG or MathML: `<![CDATA[` opens a CDATA section only there. */
  inForeignContent(): boolean;
  /** The start tag being read is a foreign element, whose `/>` closes it (an HTML element's is ignored). */
  honoursSelfClosing(): boolean;
};

export type BrowserTokenizer = {
  write(html: string): void;
  end(): void;
  /**
   * Called from `onopentagend`: what follows the start tag just read is raw text up to
   * `</endTag`, or to the end of the input for `""` (`<plaintext>`), or markup for null.
   */
  rawText(endTag: string | null): void;
};

/** The parts of htmlparser2's Tokenizer (10.x) that the corrections below use; not its public API. */
type Internals = {
  isSpecial: boolean;
  currentSequence: Uint8Array;
  sequenceIndex: number;
  index: number;
  sectionStart: number;
  stateBeforeAttributeName(c: number): void;
  stateBeforeClosingTagName(c: number): void;
  stateCDATASequence(c: number): void;
  stateInCommentLike(c: number): void;
  stateInSelfClosingTag(c: number): void;
  stateInSpecialTag(c: number): void;
};

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const DASH = 0x2d;
const SPACE = 0x20;
const isWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
// `<` then a byte no character matches (the tokenizer compares `c | 0x20`): raw text to the end.
const NEVER_ENDS = new Uint8Array([0x3c, 0x00]);
const endSequences = new Map<string, Uint8Array>();

function endSequence(tag: string): Uint8Array {
  let sequence = endSequences.get(tag);
  if (!sequence) {
    sequence = tag === "" ? NEVER_ENDS : Uint8Array.from(`</${tag}`, (ch) => ch.charCodeAt(0));
    endSequences.set(tag, sequence);
  }
  return sequence;
}

/**
 * htmlparser2's tokenizer, corrected where it reads html otherwise than a browser does, so a
 * tag a browser sees is never hidden from the rewriter (each correction is one state's
 * decision, so the pass stays linear):
 * - raw text (`<style>`, `<title>`, `<noembed>`…) is decided by the tree, through `rawText`:
 *   none inside SVG/MathML, where htmlparser2 would hide the tags a browser sees there;
 * - an HTML element's `/>` is ignored (`<style/>` still opens raw text);
 * - raw text also ends at `</style/`;
 * - `<![CDATA[` outside SVG/MathML is a bogus comment that ends at the first `>`;
 * - a comment also ends at `--!>` (its own two dashes, not those of `<!--`);
 * - `</` followed by a space is a bogus comment, not an end tag.
 */
export function browserTokenizer(callbacks: Callbacks, tree: TreeHooks): BrowserTokenizer {
  const tokenizer = new CorrectedTokenizer(callbacks, tree);
  return {
    write: (html) => tokenizer.write(html),
    end: () => tokenizer.end(),
    rawText(endTag) {
      tokenizer.isSpecial = endTag !== null;
      if (endTag !== null) tokenizer.currentSequence = endSequence(endTag);
    },
  };
}

// A subclass (not methods replaced on the instance, which slowed the tokenizer's loop 3-4x).
const Base = Tokenizer as unknown as new (options: { decodeEntities: boolean }, callbacks: Callbacks) => Internals & { write(html: string): void; end(): void };

class CorrectedTokenizer extends Base {
  private bang = false; // a comment has read `--!`

  constructor(
    callbacks: Callbacks,
    private readonly tree: TreeHooks,
  ) {
    super({ decodeEntities: true }, callbacks);
  }

  override stateCDATASequence(c: number) {
    if (this.tree.inForeignContent()) return super.stateCDATASequence(c);
    // A mismatch turns it into a declaration, which runs to the next `>`, this byte included.
    super.stateCDATASequence(c === GT ? c : -1);
  }

  override stateInCommentLike(c: number) {
    const inComment = this.currentSequence[0] === DASH;
    if (inComment && this.bang) {
      this.bang = false;
      this.sequenceIndex = c === GT ? 2 : 0;
    } else if (inComment && c === BANG && this.sequenceIndex === 2 && this.index - 2 >= this.sectionStart) {
      // Two dashes of the comment's own (`<!---!>` has one: htmlparser2 counts `<!--` as `--` for `<!-->`).
      this.bang = true;
      return;
    }
    super.stateInCommentLike(c);
  }

  override stateInSelfClosingTag(c: number) {
    if (c === GT && !this.tree.honoursSelfClosing()) return this.stateBeforeAttributeName(c);
    super.stateInSelfClosingTag(c);
  }

  override stateInSpecialTag(c: number) {
    const ends = c === SLASH && this.sequenceIndex === this.currentSequence.length;
    super.stateInSpecialTag(ends ? SPACE : c);
  }

  override stateBeforeClosingTagName(c: number) {
    super.stateBeforeClosingTagName(isWhitespace(c) ? BANG : c);
  }
}
