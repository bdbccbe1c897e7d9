import type { Element } from "domhandler";
import type { Finding } from "@/lib/schemas/presend";
import { finding, plural } from "./finding";
import type { HtmlSource } from "./source";

type Rule = { rule: string; severity: Finding["severity"]; message: (name: string, n: number) => string };

const times = (n: number) => (n > 1 ? ` (${plural(n, "time")})` : "");

const RULES = {
  noSrc: { rule: "image-no-src", severity: "error", message: (_, n) => `${n > 1 ? `${plural(n, "image")} have` : "An image has"} no source address, so a broken-image box shows.` },
  alt: { rule: "image-alt", severity: "warning", message: (name, n) => `The image ${name} has no alt text${times(n)}: with images off (Outlook's default) readers see nothing in its place, and screen readers read the file name. Use alt="" for decoration.` },
  size: { rule: "image-size", severity: "warning", message: (name, n) => `The image ${name} has no width or height${times(n)}, so Outlook shows it at its natural size and the layout jumps while it loads.` },
  insecure: { rule: "image-insecure", severity: "warning", message: (name, n) => `The image ${name} is loaded over http:${times(n)}; Gmail and others proxy or block insecure images, and the message can show as "not secure".` },
} satisfies Record<string, Rule>;

const declares = (element: Element, property: "width" | "height") =>
  Boolean(element.attribs[property]?.trim()) || new RegExp(`(^|;)\\s*(max-)?${property}\\s*:`, "i").test(element.attribs.style ?? "");

function shortName(src: string): string {
  const clean = src.trim().split(/[?#]/)[0] ?? "";
  const name = clean.split("/").filter(Boolean).at(-1) ?? clean;
  return `"${name.length > 60 ? `${name.slice(0, 57)}…` : name}"`;
}

export function checkImages(source: HtmlSource): Finding[] {
  const grouped = new Map<string, { rule: Rule; element: Element; name: string; count: number }>();
  const add = (rule: Rule, element: Element, src: string) => {
    const key = `${rule.rule} ${src}`;
    const known = grouped.get(key);
    if (known) known.count++;
    else grouped.set(key, { rule, element, name: shortName(src), count: 1 });
  };
  for (const element of source.elements) {
    if (element.name !== "img") continue;
    const src = (element.attribs.src ?? "").trim();
    if (!src) {
      add(RULES.noSrc, element, "");
      continue;
    }
    if (element.attribs.alt === undefined) add(RULES.alt, element, src);
    if (!declares(element, "width") || !declares(element, "height")) add(RULES.size, element, src);
    if (/^http:/i.test(src)) add(RULES.insecure, element, src);
  }
  return [...grouped.values()].map(({ rule, element, name, count }) =>
    finding("images", rule.rule, rule.severity, rule.message(name, count), { place: source.placeOf(element), ...(count > 1 ? { count } : {}) }),
  );
}
