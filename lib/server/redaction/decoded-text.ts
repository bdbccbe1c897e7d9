import { DecodingMode, EntityDecoder, htmlDecodeTree } from "entities/lib/decode.js";

/**
 * The text as a reader sees it when an address in it is written in an escaped form: HTML
 * character references (`erase-me&#64;example.com`, `&#x40;`, `&commat;`, `&#101;rase…` — the
 * usual obfuscation of addresses in pages and mail, shown by every client as the address),
 * percent-encoding (`erase%2Dme%40example.com`, UTF-8 sequences included) and
 * quoted-printable (`=40`, soft line breaks `=\r\n`). Each layer decodes every escape of the
 * layer below once, so a link's address encoded twice (`%2540`, `&#37;40`) is plain two layers
 * up. Each layer keeps where each of its units came from in the original text (`toRaw`), so a
 * match found in it replaces exactly the escapes it was read from, and the units it decoded
 * (`decoded`), so a reader of a layer need only look near them.
 *
 * Linear in the text: each layer is one pass that looks at most a bounded number of units past
 * a `&`, `%` or `=` (the longest entity name, or 12 units of one UTF-8 sequence), or consumes
 * what it looks at (the digits of a numeric reference); at most MAX_LAYERS layers.
 *
 * Quoted-printable is read only where an encoder writes it: upper-case hex, never for a letter,
 * digit or control character (`x=12ab@…` keeps its `=12`). Decoding can also hide an address
 * written plainly (a literal `%41` before it), which is why the matcher reads the raw text too.
 */
export type Layer = {
  text: string;
  /** Where unit `i` of `text` (or, for `text.length`, the end) was read from in the original text. */
  toRaw: (i: number) => number;
  /**
   * Where this layer differs from the one below — what it decoded — as `[start, end)` pairs in
   * `text`, left to right: a find made only of other units was already in the layer below.
   */
  decoded: number[];
};

const MAX_LAYERS = 3;

/**
 * Units of text looked at by the decoders and the matcher (./address-matcher.ts), counted so a
 * test can bound the work by construction rather than by a clock (address-matcher.test.ts).
 * A failed named reference reads at most the longest entity name (32 units) inside the
 * `entities` decoder, counted as one.
 */
export const workDone = { units: 0 };

export function decodedLayers(raw: string): Layer[] {
  const layers: Layer[] = [];
  let text = raw;
  let toRaw = (i: number) => i;
  for (let k = 0; k < MAX_LAYERS; k++) {
    const next = decodeOnce(text);
    if (!next) break;
    const below = toRaw;
    const esc = next.escapes;
    toRaw = (i: number) => below(sourceOf(esc, i));
    text = next.text;
    // A soft line break decodes to nothing: it is still where the layer differs (an empty pair).
    const decoded: number[] = [];
    for (let e = 0; e < esc.length; e += 4) decoded.push(esc[e]!, esc[e + 1]!);
    layers.push({ text, toRaw, decoded });
  }
  return layers;
}

/**
 * Unit `i` of a decoded text back in its source: `escapes` holds `[start, end, sourceStart,
 * sourceEnd]` of each decoded escape, ordered; a unit outside them was copied.
 */
function sourceOf(escapes: number[], i: number): number {
  // The last escape whose output starts at or before i.
  let lo = 0;
  let hi = escapes.length / 4;
  while (lo < hi) {
    workDone.units++;
    const mid = (lo + hi) >> 1;
    if (escapes[mid * 4]! <= i) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return i;
  const e = (lo - 1) * 4;
  const [start, end, sourceStart, sourceEnd] = [escapes[e]!, escapes[e + 1]!, escapes[e + 2]!, escapes[e + 3]!];
  return i < end ? sourceStart : sourceEnd + (i - end);
}

/** Whether the text has a character that may start an escape: a cheap test before decodedLayers. */
export function mayHoldEscapes(s: string): boolean {
  return ESCAPE_START.test(s);
}
const ESCAPE_START = /[&%=]/;

const hexValue = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
const isAlnum = (b: number) => (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122);

/** The byte of the escape at `i` (`%XX`, or quoted-printable `=XX`), or -1. */
function escapedByte(s: string, i: number, kind: number): number {
  if (s.charCodeAt(i) !== kind) return -1;
  const hi = s.charCodeAt(i + 1);
  const lo = s.charCodeAt(i + 2);
  if (kind === EQ && !(isUpperHex(hi) && isUpperHex(lo))) return -1;
  const h = hexValue(hi);
  const l = hexValue(lo);
  if (h < 0 || l < 0) return -1;
  const b = h * 16 + l;
  if (kind === EQ && b < 0x80 && (b <= 0x20 || b === 0x7f || isAlnum(b))) return -1;
  return b;
}
const isUpperHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70);

const AMP = 38;
const PERCENT = 37;
const EQ = 61;

/**
 * The escapes starting at `i` as one character (a UTF-8 sequence spans several): its text
 * and the length of what it was read from; null when there is none.
 */
function escapeAt(s: string, i: number, decoder: { entity: EntityDecoder; cps: number[] }): { text: string; length: number } | null {
  const c = s.charCodeAt(i);
  if (c === AMP) {
    decoder.cps.length = 0;
    decoder.entity.startEntity(DecodingMode.Legacy);
    let length = decoder.entity.write(s, i + 1);
    if (length < 0) length = decoder.entity.end();
    if (length <= 0 || !decoder.cps.length) return null;
    return { text: String.fromCodePoint(...decoder.cps), length };
  }
  if (c !== PERCENT && c !== EQ) return null;
  if (c === EQ) {
    // A quoted-printable soft line break: nothing.
    if (s.charCodeAt(i + 1) === 10) return { text: "", length: 2 };
    if (s.charCodeAt(i + 1) === 13 && s.charCodeAt(i + 2) === 10) return { text: "", length: 3 };
  }
  const first = escapedByte(s, i, c);
  if (first < 0) return null;
  if (first < 0x80) return { text: String.fromCharCode(first), length: 3 };
  const more = first >= 0xc2 && first <= 0xdf ? 1 : first >= 0xe0 && first <= 0xef ? 2 : first >= 0xf0 && first <= 0xf4 ? 3 : -1;
  if (more < 0) return null;
  let cp = first & (more === 1 ? 0x1f : more === 2 ? 0x0f : 0x07);
  for (let k = 1; k <= more; k++) {
    const b = escapedByte(s, i + 3 * k, c);
    if (b < 0x80 || b > 0xbf) return null;
    cp = cp * 64 + (b & 0x3f);
  }
  const min = more === 1 ? 0x80 : more === 2 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return { text: String.fromCodePoint(cp), length: 3 * (more + 1) };
}

/**
 * The next place at or after `from` where one of `needles` starts, or -1: each needle is looked
 * for with indexOf (the engine's fast search) and its place kept until it is passed, so finding
 * every place in a text reads it once per needle.
 */
export function finder(text: string, needles: readonly string[]): (from: number) => number {
  const at = needles.map(() => -2);
  return (from) => {
    let best = -1;
    for (let k = 0; k < needles.length; k++) {
      if (at[k]! !== -1 && at[k]! < from) {
        at[k] = text.indexOf(needles[k]!, from);
        // indexOf read from `from` to the find (or the end); the next search starts past it.
        workDone.units += (at[k]! < 0 ? text.length : at[k]! + 1) - from;
      }
      if (at[k]! >= 0 && (best < 0 || at[k]! < best)) best = at[k]!;
    }
    return best;
  };
}

const STARTS = ["&", "%", "="];

/** One layer: every escape of `s` decoded once, and where each was (sourceOf); null when `s` has none. */
function decodeOnce(s: string): { text: string; escapes: number[] } | null {
  if (!mayHoldEscapes(s)) return null;
  const cps: number[] = [];
  // A reference with thousands of digits comes out of the decoder as no number at all: shown as
  // U+FFFD, as a browser does with one past the last code point.
  const valid = (cp: number) => (Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? cp : 0xfffd);
  const decoder = { entity: new EntityDecoder(htmlDecodeTree, (cp) => cps.push(valid(cp))), cps };
  const parts: string[] = [];
  const escapes: number[] = [];
  let out = 0;
  let copied = 0;
  const next = finder(s, STARTS);
  for (let i = next(0); i >= 0; i = next(i + 1)) {
    const found = escapeAt(s, i, decoder);
    workDone.units += 1 + (found?.length ?? 0);
    if (!found) continue;
    parts.push(s.slice(copied, i), found.text);
    out += i - copied;
    escapes.push(out, out + found.text.length, i, i + found.length);
    out += found.text.length;
    copied = i + found.length;
    i = copied - 1;
  }
  if (!escapes.length) return null;
  parts.push(s.slice(copied));
  workDone.units += s.length; // the copy
  return { text: parts.join(""), escapes };
}
