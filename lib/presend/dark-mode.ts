import type { Element } from "domhandler";
import { ElementType } from "htmlparser2";
import type { Finding } from "@/lib/schemas/presend";
import { cssHasDarkStyles, DARK_TEXT, declaredValue, luminance, metaNamesDark, paintsBackground, parseColor } from "@/lib/messages/dark-mode";
import { finding, plural } from "./finding";
import type { HtmlSource } from "./source";

/**
 * Dark mode, as advice: an email with no dark styles of its own is shown by each client its
 * own way (Gmail's apps invert it, Outlook.com recolours it, Apple Mail may give it a dark page
 * and keep its colours). What goes wrong most is what has no background of its own: dark text
 * on the page's transparent background, and a transparent logo with dark ink. A heuristic over
 * inline styles and attributes (a `<style>` sheet's backgrounds are not followed), one pass over
 * the elements, parents before children.
 */

const RULES = {
  text: "dark-mode-text",
  logo: "dark-mode-logo",
} as const;

/** Formats that can be transparent, by a URL's extension or a data: URL's type. */
const TRANSPARENT_FORMATS = ["png", "gif", "svg", "webp"];
const LOGO_WORDS = ["logo", "wordmark", "brand"];

function hasDarkStyles(source: HtmlSource): boolean {
  for (const element of source.elements) {
    if (element.name === "style" && cssHasDarkStyles(textOf(element))) return true;
    if (element.name === "meta") {
      const name = (element.attribs.name ?? "").trim().toLowerCase();
      if ((name === "color-scheme" || name === "supported-color-schemes") && metaNamesDark(element.attribs.content ?? "")) return true;
    }
  }
  return false;
}

const textOf = (element: Element) => element.children.map((c) => (c.type === ElementType.Text ? c.data : "")).join("");

/** The element paints a background of its own (bgcolor, a background image, or an inline background). */
function ownBackground(element: Element): boolean {
  const { bgcolor, background, style } = element.attribs;
  if (bgcolor?.trim() && paintsBackground(bgcolor)) return true;
  if (background?.trim()) return true;
  if (!style) return false;
  return [declaredValue(style, "background"), declaredValue(style, "background-color")].some((v) => v !== null && paintsBackground(v));
}

function darkTextColor(element: Element): boolean {
  const color = element.attribs.style ? declaredValue(element.attribs.style, "color") : null;
  const value = color ?? (element.name === "font" ? element.attribs.color : undefined) ?? (element.name === "body" ? element.attribs.text : undefined);
  const parsed = value ? parseColor(value.replace(/!important/i, "")) : null;
  return parsed !== null && parsed.a > 0 && luminance(parsed) < DARK_TEXT;
}

function transparentLogo(element: Element): boolean {
  const src = (element.attribs.src ?? "").trim().toLowerCase();
  const format = src.startsWith("data:") ? src.slice(5, src.indexOf(";") === -1 ? 40 : src.indexOf(";")) : (src.split(/[?#]/, 1)[0] ?? "").split(".").at(-1) ?? "";
  if (!TRANSPARENT_FORMATS.some((f) => format.includes(f))) return false;
  const names = [element.attribs.src, element.attribs.alt, element.attribs.class, element.attribs.id].map((v) => (v ?? "").toLowerCase());
  return names.some((n) => LOGO_WORDS.some((w) => n.includes(w)));
}

export function checkDarkMode(source: HtmlSource): Finding[] {
  if (hasDarkStyles(source)) return [];
  const backed = new Map<Element, boolean>();
  const text: Element[] = [];
  const logos: Element[] = [];
  for (const element of source.elements) {
    const parent = element.parent && element.parent.type !== ElementType.Root ? (element.parent as Element) : null;
    const painted = ((parent && backed.get(parent)) ?? false) || ownBackground(element);
    backed.set(element, painted);
    if (painted) continue;
    if (darkTextColor(element)) text.push(element);
    if (element.name === "img" && transparentLogo(element)) logos.push(element);
  }
  const found: Finding[] = [];
  if (text.length > 0)
    found.push(
      finding("dark", RULES.text, "info", `Dark text with no background behind it${text.length > 1 ? ` (${plural(text.length, "place")})` : ""}, and no dark styles: a client that gives the page a dark background but keeps your colours shows it dark on dark. Consider a background colour on its table or cell (bgcolor or background-color), or dark styles in @media (prefers-color-scheme: dark).`, {
        place: source.placeOf(text[0]!),
        ...(text.length > 1 ? { count: text.length } : {}),
      }),
    );
  if (logos.length > 0)
    found.push(
      finding("dark", RULES.logo, "info", `An image that looks like a logo${logos.length > 1 ? ` (${plural(logos.length, "image")})` : ""} can be transparent and has no background behind it: if its ink is dark, it disappears on a dark background. Consider a light outline or background in the image itself, or a version for dark mode.`, {
        place: source.placeOf(logos[0]!),
        ...(logos.length > 1 ? { count: logos.length } : {}),
      }),
    );
  return found;
}
