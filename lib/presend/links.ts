import type { Element } from "domhandler";
import type { Finding, Place, PresendLink } from "@/lib/schemas/presend";
import { finding, plural } from "./finding";
import { hasMergeVariable, LINK_TEXT_CHARS, linkTexts, type HtmlSource } from "./source";

type Kind = PresendLink["kind"];
export type ExtractedLink = { element: Element; href: string; text: string; place: Place; kind: Kind; host: string | null };

/** Browsers ignore tabs, newlines and leading control characters in a scheme; so do we when judging one. */
const schemeOf = (href: string) => /^([a-z][a-z0-9+.-]*):/i.exec(href.replace(/[\u0000-\u0020]/g, ""))?.[1]?.toLowerCase() ?? null;

function classify(href: string): { kind: Kind; host: string | null } {
  if (hasMergeVariable(href)) {
    try {
      return { kind: "variable", host: new URL(href).hostname || null };
    } catch {
      return { kind: "variable", host: null };
    }
  }
  const scheme = schemeOf(href);
  if (scheme === "http" || scheme === "https") {
    try {
      return { kind: "web", host: new URL(href.trim()).hostname.toLowerCase() };
    } catch {
      return { kind: "web", host: null };
    }
  }
  if (scheme === "mailto") return { kind: "mailto", host: decodeURIComponent(href.trim().slice(7).split("?")[0] ?? "") || null };
  if (scheme === "tel" || scheme === "sms") return { kind: "tel", host: href.trim().slice(scheme.length + 1) || null };
  return { kind: "other", host: null };
}

export function extractLinks(source: HtmlSource): ExtractedLink[] {
  const out: ExtractedLink[] = [];
  const texts = linkTexts(source.document);
  for (const element of source.elements) {
    if ((element.name !== "a" && element.name !== "area") || element.attribs.href === undefined) continue;
    const href = element.attribs.href;
    const text = element.name === "a" ? (texts.get(element) ?? "") : (element.attribs.alt ?? "").slice(0, LINK_TEXT_CHARS);
    out.push({ element, href, text, place: source.placeOf(element), ...classify(href) });
  }
  return out;
}

/** Distinct links with how often each appears, in source order: what the panel lists and the reachability check follows. */
export function listLinks(links: ExtractedLink[]): PresendLink[] {
  const byUrl = new Map<string, PresendLink>();
  for (const link of links) {
    const url = link.href.trim();
    if (!url || url.startsWith("#")) continue;
    const known = byUrl.get(url);
    if (known) {
      known.count++;
      if (!known.text && link.text) known.text = link.text;
    } else byUrl.set(url, { url, kind: link.kind, host: link.host, text: link.text.slice(0, 200), count: 1, place: link.place });
  }
  return [...byUrl.values()];
}

const FILE_ENDINGS = new Set(["html", "htm", "pdf", "png", "jpg", "jpeg", "gif", "webp", "svg", "php", "asp", "aspx", "js", "css", "txt", "zip", "doc", "docx", "xls", "xlsx", "csv", "ics"]);

const TRAILING_PUNCTUATION = new Set([".", ",", ";", ":", "!", "?", ")"]);

/** "acme.test)." → "acme.test". By hand: /[.,;:!?)]+$/ retries from every character of a long run not at the end (quadratic). */
function trimTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1])) end--;
  return text.slice(0, end);
}

/** The domain a link's text shows the reader, when the text is (or contains) an address. */
export function domainShownIn(text: string): string | null {
  const t = trimTrailingPunctuation(text.trim());
  const whole = /^(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+([a-z]{2,63}))(?::\d+)?(?:[/?#]\S*)?$/i.exec(t);
  if (whole && (/^https?:\/\//i.test(t) || !FILE_ENDINGS.has(whole[2].toLowerCase()))) return whole[1].toLowerCase();
  const inside = /(?:https?:\/\/|\bwww\.)((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63})\b/i.exec(t);
  if (!inside) return null;
  const host = inside[1].toLowerCase();
  return /^www\./i.test(inside[0]) ? `www.${host}` : host;
}

const SECOND_LEVEL = new Set(["co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go", "gob", "nic"]);

/** example.com for www.example.com or mail.example.co.uk → example.co.uk: a small stand-in for the public suffix list. */
export function siteOf(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, "").split(".");
  if (labels.length <= 2) return labels.join(".");
  const take = labels.at(-1)!.length === 2 && SECOND_LEVEL.has(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-take).join(".");
}

const sameSite = (a: string, b: string) => siteOf(a) === siteOf(b);

type Problem = { rule: string; severity: Finding["severity"]; message: (url: string, n: number) => string };

function problemOf(link: ExtractedLink): Problem | null {
  const href = link.href.trim();
  if (link.kind === "variable" || link.kind === "mailto" || link.kind === "tel") return null;
  if (!href) return { rule: "link-empty", severity: "error", message: (_, n) => `${n > 1 ? `${plural(n, "link")} have` : "A link has"} an empty address, so clicking ${n > 1 ? "them" : "it"} does nothing or reopens the message.` };
  if (href.startsWith("#")) return { rule: "link-fragment", severity: "warning", message: (url, n) => `${n > 1 ? `${plural(n, "link")} point` : "A link points"} only to "${url}", which goes nowhere in most email clients.` };
  const scheme = schemeOf(href);
  if (scheme === "javascript") return { rule: "link-javascript", severity: "error", message: (_, n) => `${n > 1 ? `${plural(n, "link")} run` : "A link runs"} javascript:, which email clients remove or block and spam filters treat as an attack.` };
  if (href.startsWith("//")) return { rule: "link-protocol-relative", severity: "warning", message: (url) => `The link ${url} has no scheme; some email clients open it as a file or not at all. Start it with https://.` };
  if (!scheme) return { rule: "link-relative", severity: "error", message: (url) => `The link "${url}" is relative, but an email has no page it could be relative to, so it goes nowhere. Use a full https:// address.` };
  if (link.kind === "other") return { rule: "link-scheme", severity: "warning", message: (url) => `The link ${url.slice(0, 60)} uses "${scheme}:", which email clients do not open.` };
  if (!link.host) return { rule: "link-invalid", severity: "error", message: (url) => `The link ${url} is not a valid address.` };
  if (scheme === "http") return { rule: "link-insecure", severity: "warning", message: (url, n) => `The link ${url} uses http:, not https:${n > 1 ? ` (${plural(n, "time")})` : ""}; browsers warn about it and filters score unencrypted links.` };
  return null;
}

export function checkLinks(links: ExtractedLink[]): Finding[] {
  const grouped = new Map<string, { problem: Problem; url: string; first: ExtractedLink; count: number }>();
  const out: Finding[] = [];
  for (const link of links) {
    const problem = problemOf(link);
    if (problem) {
      const url = link.href.trim();
      const key = `${problem.rule} ${url}`;
      const known = grouped.get(key);
      if (known) known.count++;
      else grouped.set(key, { problem, url, first: link, count: 1 });
    }
    if (link.kind === "web" && link.host) {
      const shown = domainShownIn(link.text);
      if (shown && !sameSite(shown, link.host)) {
        out.push(
          finding("links", "link-text-domain", "warning", `The link text shows ${shown} but the link goes to ${link.host}; mailbox providers and readers take that for phishing.`, { place: link.place }),
        );
      }
    }
  }
  for (const { problem, url, first, count } of grouped.values()) {
    out.push(finding("links", problem.rule, problem.severity, problem.message(url, count), { place: first.place, ...(count > 1 ? { count } : {}) }));
  }
  return out;
}
