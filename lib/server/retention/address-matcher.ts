import { domainToASCII, domainToUnicode } from "node:url";

/**
 * Finds erased addresses in any text and replaces each with its marker, in time linear in the
 * text: no regular expression is built from an address. Each `@` (also `＠` and the URL
 * encoding `%40`) is a possible middle; from it the domains are walked forward in a trie and,
 * where one ends, the local parts backward in a trie of their own, so the work per `@` is at
 * most the longest erased domain plus the longest local part, whatever the text. An address is
 * found as a substring (`xerase-me@example.community` holds `erase-me@example.com`), in any
 * case, its domain in Unicode or in Punycode (IDN), its text composed or decomposed (NFC/NFD).
 */
export type ErasedEntry = { address: string; marker: string };

type DomainNode = { next: Map<string, DomainNode>; locals?: LocalNode };
type LocalNode = { next: Map<string, LocalNode>; marker?: string };

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

export class AddressMatcher {
  private readonly domains: DomainNode = { next: new Map() };
  private readonly exact = new Map<string, string>();
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

  /** `text` with every erased address in it replaced by its marker (the same string when there is none). */
  redact(text: string): string {
    if (this.size === 0 || text.length < 3) return text;
    let out = "";
    let copied = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let width = 0;
      if (c === 64 || c === 0xff20) width = 1;
      else if (c === 37 && text.charCodeAt(i + 1) === 52 && text.charCodeAt(i + 2) === 48) width = 3;
      if (!width) continue;
      const found = this.matchAt(text, i, width);
      if (!found) continue;
      const start = Math.max(found.start, copied);
      out += text.slice(copied, start) + (start === found.start ? found.marker : "");
      copied = found.end;
      i = found.end - 1;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /** The longest erased address around the `@` at `at` (`width` units long): its span and marker. */
  private matchAt(text: string, at: number, width: number): { start: number; end: number; marker: string } | null {
    // Every place an erased domain ends, longest last.
    const ends: { end: number; locals: LocalNode }[] = [];
    let d: DomainNode | undefined = this.domains;
    for (let j = at + width; j < text.length && d; j++) {
      d = d.next.get(fold(text[j]!));
      if (d?.locals) ends.push({ end: j + 1, locals: d.locals });
    }
    for (let k = ends.length - 1; k >= 0; k--) {
      let l: LocalNode | undefined = ends[k]!.locals;
      let start = -1;
      let marker = "";
      for (let j = at - 1; j >= 0 && l; j--) {
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
