import { domainToASCII, domainToUnicode } from "node:url";
import { decodedLayers, finder, mayHoldEscapes, workDone } from "./decoded-text";

/**
 * Finds erased addresses in any text and replaces each with its marker, in time linear in the
 * text: no regular expression is built from an address. Each `@` (also `＠` and the URL
 * encoding `%40`) is a possible middle; from it the domains are walked forward in a trie and,
 * where one ends, the local parts backward in a trie of their own, so the work per `@` is at
 * most the longest erased domain plus the longest local part, whatever the text. An address is
 * found as a substring (`xerase-me@example.community` holds `erase-me@example.com`), in any
 * case, its domain in Unicode or in Punycode (IDN), its text composed or decomposed (NFC/NFD),
 * and escaped in any of the ways a page, a link or a mail body escapes it (HTML character
 * references, percent-encoding, quoted-printable: ./decoded-text.ts) — the text is read as
 * written and in each decoded layer, a constant number of linear passes.
 */
export type ErasedEntry = { address: string; marker: string };

type DomainNode = { next: Map<string, DomainNode>; locals?: LocalNode };
type LocalNode = { next: Map<string, LocalNode>; marker?: string };
type Span = { start: number; end: number; marker: string };

/** What may stand between local part and domain, as written. */
const MIDDLES = ["@", "\uff20", "%40"];

/** One UTF-16 unit, case-folded on its own, so text and addresses fold alike and keep their length. */
function fold(unit: string): string {
  const c = unit.charCodeAt(0);
  if (c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : unit;
  const lower = unit.toLowerCase();
  return lower.length === 1 ? lower : unit;
}

function foldAll(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += fold(s[i]!);
  return out;
}

/** The forms one address may take in text: composed and decomposed, its domain in Unicode and in ASCII. */
function variants(address: string): { local: string; domain: string }[] {
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return [];
  const local = address.slice(0, at).trim();
  const domain = address.slice(at + 1).trim();
  const locals = new Set([local.normalize("NFC"), local.normalize("NFD")].map(foldAll));
  const domains = new Set<string>();
  for (const form of [domain.normalize("NFC"), domain.normalize("NFD")]) {
    domains.add(foldAll(form));
    const ascii = domainToASCII(form);
    if (ascii) {
      domains.add(foldAll(ascii));
      const unicode = domainToUnicode(ascii);
      if (unicode) for (const u of [unicode.normalize("NFC"), unicode.normalize("NFD")]) domains.add(foldAll(u));
    }
  }
  const out: { local: string; domain: string }[] = [];
  for (const l of locals) for (const d of domains) if (l && d) out.push({ local: l, domain: d });
  return out;
}

/** Every form of the address as text may hold it, case-folded (`local@domain`, and `%40` and `＠` for the `@`). */
export function addressForms(address: string): string[] {
  const forms = new Set<string>();
  for (const v of variants(address)) for (const at of ["@", "%40", "\uff20"]) forms.add(`${v.local}${at}${v.domain}`);
  return [...forms];
}

/** A cheap test of a stored text (SQL, before a row is read and redacted): see addressAnchors. */
export type AddressAnchor = { local: string; domain: string };

const longestRun = (s: string) => s.match(/[a-z0-9]+/g)?.reduce((a, b) => (b.length > a.length ? b : a), "") ?? "";

/**
 * For each form of the address, the longest run of ASCII letters and digits of its local part
 * and of its domain (`erase`, `example` for `erase-me@example.com`). A text this matcher finds
 * the address in holds both runs of one form as written whenever its escapes encode the
 * punctuation (`%40`, `=40`, `&#64;`, `erase%2Dme`), as encoders do; letters are escaped by
 * obfuscators, which escape the `@` too — `&#64;`, `&#x40;`, `&commat;`, what scrub.ts's
 * test adds. A text passing the test is only a candidate: the matcher decides.
 */
export function addressAnchors(address: string): AddressAnchor[] {
  const seen = new Map<string, AddressAnchor>();
  for (const v of variants(address)) {
    const anchor = { local: longestRun(v.local), domain: longestRun(v.domain) };
    seen.set(`${anchor.local}@${anchor.domain}`, anchor);
  }
  return [...seen.values()];
}

export class AddressMatcher {
  private readonly domains: DomainNode = { next: new Map() };
  private readonly exact = new Map<string, string>();
  /** The longest erased local part and domain, in any form: how far from its `@` an address reaches. */
  private readonly longest = { local: 0, domain: 0 };
  readonly size: number;

  constructor(entries: readonly ErasedEntry[]) {
    for (const { address, marker } of entries) {
      for (const v of variants(address)) {
        this.exact.set(`${v.local}@${v.domain}`, marker);
        let d = this.domains;
        for (const ch of v.domain) {
          let n = d.next.get(ch);
          if (!n) d.next.set(ch, (n = { next: new Map() }));
          d = n;
        }
        let l: LocalNode = (d.locals ??= { next: new Map() });
        for (let i = v.local.length - 1; i >= 0; i--) {
          const ch = v.local[i]!;
          let n = l.next.get(ch);
          if (!n) l.next.set(ch, (n = { next: new Map() }));
          l = n;
        }
        l.marker ??= marker;
      }
    }
    this.size = entries.length;
    for (const { address } of entries) {
      for (const v of variants(address)) {
        this.longest.local = Math.max(this.longest.local, v.local.length);
        this.longest.domain = Math.max(this.longest.domain, v.domain.length);
      }
    }
  }

  /** The marker when `address` (a bare address) is an erased one, in any of its forms; null otherwise. */
  markerOf(address: string): string | null {
    const at = address.lastIndexOf("@");
    if (at <= 0) return null;
    const local = address.slice(0, at).trim();
    const domain = address.slice(at + 1).trim();
    for (const v of [{ local, domain }, ...variants(`${local}@${domain}`)]) {
      const m = this.exact.get(`${foldAll(v.local)}@${foldAll(v.domain)}`);
      if (m) return m;
    }
    return null;
  }

  /**
   * `text` with every erased address in it replaced by its marker (the same string when there
   * is none): as written, and as read once its escapes are decoded (./decoded-text.ts) — an
   * escaped address is replaced with its escapes.
   */
  redact(text: string): string {
    if (this.size === 0 || text.length < 3) return text;
    const spans = this.spansIn(text, 0, text.length);
    if (mayHoldEscapes(text)) {
      for (const layer of decodedLayers(text)) {
        // Only `@`s near what the layer decoded: a find of other units alone is one of the layer
        // below. A decoded unit in the domain is at most its length past the `@`, one in the
        // local part at most its length before.
        const d = layer.decoded;
        const [before, after] = [this.longest.domain + 3, this.longest.local + 1];
        let from = 0;
        const next = finder(layer.text, MIDDLES);
        for (let k = 0; k < d.length; k += 2) {
          workDone.units++;
          const start = Math.max(from, d[k]! - before);
          let end = d[k + 1]! + after;
          while (k + 2 < d.length && d[k + 2]! - before <= end) {
            workDone.units++;
            end = d[(k += 2) + 1]! + after;
          }
          end = Math.min(end, layer.text.length);
          for (const f of this.spansIn(layer.text, start, end, next)) spans.push({ start: layer.toRaw(f.start), end: layer.toRaw(f.end), marker: f.marker });
          from = end;
        }
      }
    }
    if (!spans.length) return text;
    spans.sort((a, b) => a.start - b.start || b.end - a.end);
    workDone.units += spans.length;
    let out = "";
    let copied = 0;
    for (const s of spans) {
      if (s.end <= copied) continue;
      // Overlapping finds (the plain text and a decoded layer saw the same address) are one.
      out += text.slice(copied, Math.max(s.start, copied)) + (s.start >= copied ? s.marker : "");
      copied = s.end;
    }
    return out + text.slice(copied);
  }

  /** The erased addresses in `text` whose `@` is in `[from, to)`, left to right (`next`: the text's finder, when called again further on). */
  private spansIn(text: string, from: number, to: number, next = finder(text, MIDDLES)): Span[] {
    const spans: Span[] = [];
    for (let i = next(from); i >= 0 && i < to; i = next(i + 1)) {
      const width = text.charCodeAt(i) === 37 ? 3 : 1;
      const found = this.matchAt(text, i, width);
      if (!found) continue;
      spans.push(found);
      i = found.end - 1;
    }
    return spans;
  }

  /** The longest erased address around the `@` at `at` (`width` units long): its span and marker. */
  private matchAt(text: string, at: number, width: number): Span | null {
    // Every place an erased domain ends, longest last.
    const ends: { end: number; locals: LocalNode }[] = [];
    let d: DomainNode | undefined = this.domains;
    for (let j = at + width; j < text.length && d; j++) {
      workDone.units++;
      d = d.next.get(fold(text[j]!));
      if (d?.locals) ends.push({ end: j + 1, locals: d.locals });
    }
    for (let k = ends.length - 1; k >= 0; k--) {
      let l: LocalNode | undefined = ends[k]!.locals;
      let start = -1;
      let marker = "";
      for (let j = at - 1; j >= 0 && l; j--) {
        workDone.units++;
        l = l.next.get(fold(text[j]!));
        if (l?.marker) {
          start = j;
          marker = l.marker;
        }
      }
      if (start >= 0) return { start, end: ends[k]!.end, marker };
    }
    return null;
  }
}
