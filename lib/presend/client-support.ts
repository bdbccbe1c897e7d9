import { caniemail, rawData, type CanIEmailResult } from "caniemail";
import type { ClientFamilySupport, Finding } from "@/lib/schemas/presend";
import { finding } from "./finding";
import type { HtmlSource } from "./source";

/**
 * Email-client support of the html and its CSS, from the caniemail.com data of the
 * `caniemail` package: which features the source uses that a client does not (or only
 * partly) render, grouped by client family, with where each feature first appears.
 */

/** The clients most mail is read in. Each family is named once per finding. */
export const CLIENTS = [
  "gmail.desktop-webmail",
  "gmail.ios",
  "gmail.android",
  "gmail.mobile-webmail",
  "outlook.windows",
  "outlook.windows-mail",
  "outlook.macos",
  "outlook.outlook-com",
  "outlook.ios",
  "outlook.android",
  "apple-mail.macos",
  "apple-mail.ios",
  "yahoo.desktop-webmail",
  "yahoo.ios",
  "yahoo.android",
  "samsung-email.android",
  "thunderbird.macos",
] as const;
type Client = (typeof CLIENTS)[number];

type RawFeature = (typeof rawData.data)[number] & { url?: string; notes_by_num?: Record<string, string> | null };
type Stats = Record<string, Record<string, Record<string, string>>>;

const FAMILY_NAMES: Record<string, string> = { ...(rawData.nicenames?.family as Record<string, string>), yahoo: "Yahoo Mail", thunderbird: "Thunderbird" };
const PLATFORM_NAMES: Record<string, string> = { ...(rawData.nicenames?.platform as Record<string, string>), "desktop-webmail": "webmail", "mobile-webmail": "mobile webmail" };

let prepared: Map<string, RawFeature> | null = null;

/**
 * caniemail throws ("Feature … not found on client") when a feature was never tested on one
 * of the clients asked about. Such a client is marked unknown ("u"), the data's own word for
 * it, once, before the first check; unknown results are then left out of the findings.
 */
function features(): Map<string, RawFeature> {
  if (prepared) return prepared;
  const byTitle = new Map<string, RawFeature>();
  for (const feature of rawData.data as RawFeature[]) {
    const stats = feature.stats as Stats;
    for (const client of CLIENTS) {
      const [family, platform] = client.split(".") as [string, string];
      stats[family] ??= {};
      stats[family][platform] ??= { "0": "u" };
    }
    byTitle.set(feature.title, feature);
  }
  return (prepared = byTitle);
}

/** "2019-02" < "2020-11" and "9.0" < "16.80": version keys compared number by number, not as text. */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[^0-9]+/).filter(Boolean).map(Number);
  const pb = b.split(/[^0-9]+/).filter(Boolean).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return a.localeCompare(b);
}

type Support = "full" | "partial" | "none" | "unknown";

export function latestSupport(feature: RawFeature, client: Client): { support: Support; notes: string[] } {
  const [family, platform] = client.split(".") as [string, string];
  const versions = (feature.stats as Stats)[family]?.[platform];
  if (!versions) return { support: "unknown", notes: [] };
  const latest = Object.keys(versions).sort(compareVersions).at(-1)!;
  const value = versions[latest] ?? "u";
  const notes = [...value.matchAll(/#(\d+)/g)].map((m) => feature.notes_by_num?.[m[1]!]).filter((n): n is string => Boolean(n));
  const support: Support = value.startsWith("y") ? "full" : value.startsWith("n") ? "none" : value.startsWith("a") ? "partial" : "unknown";
  return { support, notes };
}

type Position = { line: number; column: number };
/** Per feature, its places keyed by `line:column`: a feature used by 30,000 elements is deduplicated by lookup, not by a scan per place. */
type Collected = Map<string, Map<string, Position>>;

function collect(result: CanIEmailResult, into: Collected, at: (p: Position | undefined) => Position[]) {
  for (const map of [result.issues.errors, result.issues.warnings]) {
    for (const issues of map.values()) {
      for (const issue of issues) {
        const places = into.get(issue.title) ?? new Map<string, Position>();
        for (const p of at(issue.position?.start)) {
          const key = `${p.line}:${p.column}`;
          if (!places.has(key)) places.set(key, p);
        }
        into.set(issue.title, places);
      }
    }
  }
}

/**
 * What caniemail reads of an element's attributes: every name, and the value only where a
 * feature depends on it (`type`, `name`, the kind of `href`, the image format of `src`,
 * `style`). Everything else (alt text, sizes, ids, each link's address) is left out, so the
 * hundred product rows of a template are one element to check, not a hundred.
 */
const urlKind = (url: string) => {
  const data = /^\s*data:([^;,]+)/i.exec(url)?.[1];
  if (data) return `data:${data.toLowerCase()}`;
  const ext = /\.([a-z0-9]+)$/i.exec(url.split(/[?#]/, 1)[0] ?? "")?.[1];
  return ext ? `u.${ext.toLowerCase()}` : "u";
};
function significantValue(name: string, value: string): string {
  switch (name) {
    case "href":
      return value.startsWith("#") ? "#" : /^mailto:/i.test(value) ? "mailto:" : "u";
    case "src":
      return urlKind(value);
    case "srcset":
      return value.split(",").map((c) => urlKind(c.trim().split(/\s+/, 1)[0] ?? "")).join(", ");
    case "type":
    case "name":
    case "style":
      return value;
    default:
      return "";
  }
}
const escapeAttribute = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/**
 * One line per distinct element (as caniemail sees it) and one for comments, and for each
 * line the source offsets of every element it stands for. caniemail checks each element on
 * its own, so its verdict on a line is its verdict on each of those elements. <style> bodies
 * are left out here and checked as CSS.
 */
function representatives(source: HtmlSource): { html: string; offsets: number[][] } {
  const lines: string[] = [];
  const offsets: number[][] = [];
  const bySignature = new Map<string, number>();
  for (const element of source.elements) {
    const attributes = Object.entries(element.attribs)
      .filter(([name]) => /^[^\s"'>/=]+$/.test(name))
      .map(([name, value]) => `${name}="${escapeAttribute(significantValue(name, value))}"`)
      .sort()
      .join(" ");
    const line = `<${element.name}${attributes ? ` ${attributes}` : ""}>${VOID.has(element.name) ? "" : `</${element.name}>`}`;
    let index = bySignature.get(line);
    if (index === undefined) {
      bySignature.set(line, (index = lines.length));
      lines.push(line);
      offsets.push([]);
    }
    offsets[index]!.push(element.startIndex ?? 0);
  }
  if (source.comments.length) {
    lines.push("<!-- -->");
    offsets.push(source.comments);
  }
  // caniemail skips <style> and <script> at the top of a document; inside an element it checks them.
  return { html: `<x-representatives>${lines.join("\n")}</x-representatives>`, offsets };
}

function styleBodies(source: HtmlSource) {
  const styles: { css: string; start: number; element: HtmlSource["elements"][number] }[] = [];
  for (const element of source.elements) {
    const body = element.name === "style" ? element.children[0] : undefined;
    if (!body || body.startIndex == null || body.endIndex == null) continue;
    styles.push({ css: source.html.slice(body.startIndex, body.endIndex + 1), start: body.startIndex, element });
  }
  return styles;
}

/**
 * Features the data marks for elements every email has, where the verdict only matters when
 * the element carries something a client would drop: `<body>` is replaced by a `<div>` in
 * some clients, which loses nothing when the body has no attributes.
 */
const ONLY_WITH_ATTRIBUTES = new Set(["html-body"]);

/** `display:flex`, `<svg>` and `@media` read as code; "Class selector" reads as words. */
const looksLikeCode = (feature: RawFeature) => (feature.category === "css" ? !/\s/.test(feature.title) || /[:@(]/.test(feature.title) : feature.title.startsWith("<"));

function describe(feature: RawFeature, families: ClientFamilySupport[]): string {
  const title = feature.title;
  const list = (key: "none" | "partial") =>
    families
      .filter((f) => f[key].length)
      .map((f) => `${f.family} (${f[key].join(", ")})`)
      .join(", ");
  const none = list("none");
  const partial = list("partial");
  const name = looksLikeCode(feature) ? `"${title}"` : title;
  if (none && partial) return `${name} is not supported in ${none}, and only partly in ${partial}.`;
  if (none) return `${name} is not supported in ${none}.`;
  return `${name} is only partly supported in ${partial}.`;
}

export function checkClientSupport(source: HtmlSource): Finding[] {
  const known = features();
  const clients = [...CLIENTS];
  const positions: Collected = new Map();
  const { html, offsets } = representatives(source);
  const toPosition = (offset: number) => {
    const p = source.placeAt(offset);
    return { line: p.line, column: p.column };
  };
  if (html) collect(caniemail({ clients, html }), positions, (p) => (p ? (offsets[p.line - 1] ?? []).map(toPosition) : []));
  for (const style of styleBodies(source)) {
    if (!style.css.trim()) continue;
    const base = source.placeAt(style.start);
    const tag = source.placeOf(style.element);
    // CSS positions are relative to the stylesheet; at-rules come without one (placed at the <style>).
    collect(caniemail({ clients, css: style.css }), positions, (p) => [
      p ? { line: base.line + p.line - 1, column: p.line === 1 ? base.column + p.column - 1 : p.column } : { line: tag.line, column: tag.column },
    ]);
  }

  const out: Finding[] = [];
  for (const [title, places] of positions) {
    const feature = known.get(title);
    if (!feature) continue;
    const byFamily = new Map<string, ClientFamilySupport>();
    const notes = new Set<string>();
    for (const client of CLIENTS) {
      const { support, notes: clientNotes } = latestSupport(feature, client);
      if (support !== "none" && support !== "partial") continue;
      const [family, platform] = client.split(".") as [string, string];
      const name = FAMILY_NAMES[family] ?? family;
      const entry = byFamily.get(name) ?? { family: name, none: [], partial: [] };
      entry[support].push(PLATFORM_NAMES[platform] ?? platform);
      byFamily.set(name, entry);
      for (const n of clientNotes) notes.add(n);
    }
    if (byFamily.size === 0) continue;
    const families = [...byFamily.values()];
    let sorted = [...places.values()].sort((a, b) => a.line - b.line || a.column - b.column);
    if (ONLY_WITH_ATTRIBUTES.has(feature.slug)) {
      sorted = sorted.filter((p) => Object.keys(source.elementStartingAt(source.lineColumnToOffset(p.line, p.column))?.attribs ?? {}).length > 0);
      if (!sorted.length) continue;
    }
    const first = sorted[0];
    out.push(
      finding("clients", `client:${feature.slug}`, families.some((f) => f.none.length) ? "warning" : "info", describe(feature, families), {
        ...(first ? { place: source.placeAtElementOr(source.lineColumnToOffset(first.line, first.column)) } : {}),
        ...(sorted.length > 1 ? { count: sorted.length } : {}),
        clients: families,
        ...(notes.size ? { notes: [...notes].slice(0, 4) } : {}),
        ...(feature.url ? { url: feature.url } : {}),
      }),
    );
  }
  return out;
}
