/**
 * How an email looks in a mail client's dark mode: whether its CSS carries dark styles of its
 * own, and the colour changes a client makes to an email without them. Shared by the preview
 * (lib/messages/email-html.ts rewrites the html with these) and the pre-send check
 * (lib/presend/dark-mode.ts). Every function reads its input once, left to right, with
 * indexOf and character tests: the CSS is written by strangers, so no regular expression
 * runs over it.
 */

/**
 * True when a style sheet has dark styles: an `@media (prefers-color-scheme: dark)` block
 * (Apple Mail, Outlook for Mac and iOS, Thunderbird…), Outlook.com's own dark selectors
 * (`[data-ogsc]` text, `[data-ogsb]` backgrounds), or a `color-scheme` naming dark.
 */
export function cssHasDarkStyles(css: string): boolean {
  const lower = css.toLowerCase();
  if (lower.includes("[data-ogsc]") || lower.includes("[data-ogsb]")) return true;
  for (let at = lower.indexOf("prefers-color-scheme"); at !== -1; at = lower.indexOf("prefers-color-scheme", at + 1)) {
    // `prefers-color-scheme: dark` with any spacing; `: light` alone is not a dark style.
    let i = at + "prefers-color-scheme".length;
    while (i < lower.length && (lower[i] === " " || lower[i] === ":" || lower[i] === "\t" || lower[i] === "\n" || lower[i] === "\r")) i++;
    if (lower.startsWith("dark", i)) return true;
  }
  return declaresDarkScheme(lower);
}

/** A `color-scheme:` declaration (or the supported-color-schemes of Apple's older drafts) naming dark. */
function declaresDarkScheme(lower: string): boolean {
  for (let at = lower.indexOf("color-scheme"); at !== -1; at = lower.indexOf("color-scheme", at + 1)) {
    if (at >= 8 && lower.startsWith("prefers-", at - 8)) continue;
    let i = at + "color-scheme".length;
    while (i < lower.length && (lower[i] === " " || lower[i] === "\t")) i++;
    if (lower[i] !== ":") continue;
    const end = endOfValue(lower, i + 1);
    if (lower.slice(i + 1, end).includes("dark")) return true;
  }
  return false;
}

/** True when the content of `<meta name="color-scheme">` (or "supported-color-schemes") names dark. */
export function metaNamesDark(content: string): boolean {
  return content.toLowerCase().includes("dark");
}

const endOfValue = (css: string, from: number) => {
  let i = from;
  while (i < css.length && css[i] !== ";" && css[i] !== "}" && css[i] !== "{") i++;
  return i;
};

// Colours

export type Rgb = { r: number; g: number; b: number; a: number };

const NAMED: Record<string, Rgb> = {
  white: { r: 255, g: 255, b: 255, a: 1 },
  black: { r: 0, g: 0, b: 0, a: 1 },
  transparent: { r: 0, g: 0, b: 0, a: 0 },
  gray: { r: 128, g: 128, b: 128, a: 1 },
  grey: { r: 128, g: 128, b: 128, a: 1 },
  navy: { r: 0, g: 0, b: 128, a: 1 },
  red: { r: 255, g: 0, b: 0, a: 1 },
  blue: { r: 0, g: 0, b: 255, a: 1 },
  whitesmoke: { r: 245, g: 245, b: 245, a: 1 },
};

const isHex = (c: string) => (c >= "0" && c <= "9") || (c >= "a" && c <= "f");

/** A CSS colour as written in email (`#fff`, `#ffffff`, `#ffffffff`, `rgb()`/`rgba()`, a few names), or null. */
export function parseColor(value: string): Rgb | null {
  const v = value.trim().toLowerCase();
  if (v.length > 40) return null;
  if (v.startsWith("#")) {
    const hex = v.slice(1);
    if (![3, 4, 6, 8].includes(hex.length) || ![...hex].every(isHex)) return null;
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex;
    const at = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return { r: at(0), g: at(2), b: at(4), a: full.length === 8 ? at(6) / 255 : 1 };
  }
  if ((v.startsWith("rgb(") || v.startsWith("rgba(")) && v.endsWith(")")) {
    const parts = v
      .slice(v.indexOf("(") + 1, -1)
      .split(/[\s,/]+/)
      .filter(Boolean);
    if (parts.length < 3 || parts.length > 4) return null;
    const channel = (p: string) => (p.endsWith("%") ? (parseFloat(p) * 255) / 100 : parseFloat(p));
    const [r, g, b] = parts.slice(0, 3).map(channel) as [number, number, number];
    const a = parts[3] === undefined ? 1 : parts[3].endsWith("%") ? parseFloat(parts[3]) / 100 : parseFloat(parts[3]);
    if ([r, g, b, a].some((n) => !Number.isFinite(n))) return null;
    return { r, g, b, a };
  }
  return NAMED[v] ?? null;
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = Math.min(255, Math.max(0, c)) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Dark text: what vanishes on a dark background (luminance below this, #595959 and darker). */
export const DARK_TEXT = 0.1;
/** A light background: what a client's dark mode replaces (luminance above this, about #bbb and lighter). */
export const LIGHT_BACKGROUND = 0.5;

const toHex = (n: number) => Math.round(Math.min(255, Math.max(0, n))).toString(16).padStart(2, "0");

/** The colour with its lightness (HSL) replaced, hue and saturation kept. */
function withLightness({ r, g, b }: Rgb, lightness: (l: number) => number): string {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) h = max === R ? ((G - B) / d) % 6 : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  const L = lightness(l);
  const c = (1 - Math.abs(2 * L - 1)) * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = L - c / 2;
  const [r1, g1, b1] = h < 0 ? [c, 0, x] : h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  return `#${toHex((r1 + m) * 255)}${toHex((g1 + m) * 255)}${toHex((b1 + m) * 255)}`;
}

/**
 * Outlook.com's partial inversion, approximated: a light background becomes a dark one of
 * the same hue, dark text becomes light; everything else (brand colours, already-dark
 * backgrounds, light text) is left as it is. Null when the colour is left.
 */
export function partialDarkColor(value: string, role: "background" | "text"): string | null {
  const color = parseColor(value);
  if (!color || color.a === 0) return null;
  const lum = luminance(color);
  if (role === "background" && lum > LIGHT_BACKGROUND) return withLightness(color, (l) => 0.09 + (1 - l) * 0.5);
  if (role === "text" && lum < DARK_TEXT) return withLightness(color, (l) => Math.max(0.85, 1 - l));
  return null;
}

const BACKGROUND_PROPERTIES = new Set(["background", "background-color"]);
const TEXT_PROPERTIES = new Set(["color"]);

/**
 * CSS (a style attribute, or a style sheet) with the colours of its `color`, `background` and
 * `background-color` declarations changed as `partialDarkColor` changes them; selectors and
 * at-rules (what precedes a `{`) are left alone. Null when nothing changed.
 */
export function recolorCssPartially(css: string): string | null {
  const out: string[] = [];
  let copied = 0;
  let start = 0;
  for (let i = 0; i <= css.length; i++) {
    const c = css[i];
    if (i < css.length && c !== ";" && c !== "{" && c !== "}") continue;
    // css[start, i) is a declaration unless a `{` ends it (then it is a selector or an at-rule's prelude).
    if (c !== "{") {
      let colon = start;
      while (colon < i && css[colon] !== ":") colon++;
      if (colon < i) {
        const property = css.slice(start, colon).trim().toLowerCase();
        const role = BACKGROUND_PROPERTIES.has(property) ? "background" : TEXT_PROPERTIES.has(property) ? "text" : null;
        if (role) {
          const value = recolorValue(css.slice(colon + 1, i), role);
          if (value !== null) {
            out.push(css.slice(copied, colon + 1), value);
            copied = i;
          }
        }
      }
    }
    start = i + 1;
  }
  if (copied === 0) return null;
  out.push(css.slice(copied));
  return out.join("");
}

/** A declaration's value with each colour word in it changed (`#fff url(x) no-repeat`, `rgb(1, 2, 3) !important`). */
function recolorValue(value: string, role: "background" | "text"): string | null {
  const words: string[] = [];
  let changed = false;
  let depth = 0;
  let word = "";
  const flush = () => {
    if (!word) return;
    const next = partialDarkColor(word, role);
    if (next) changed = true;
    words.push(next ?? word);
    word = "";
  };
  for (const c of value) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === " " || c === "\t" || c === "\n")) {
      flush();
      words.push(c);
    } else word += c;
  }
  flush();
  return changed ? words.join("") : null;
}

/** The value a style attribute gives `property` (its last declaration wins, as in CSS), or null. */
export function declaredValue(style: string, property: string): string | null {
  let found: string | null = null;
  let start = 0;
  for (let i = 0; i <= style.length; i++) {
    if (i < style.length && style[i] !== ";") continue;
    let colon = start;
    while (colon < i && style[colon] !== ":") colon++;
    if (colon < i && style.slice(start, colon).trim().toLowerCase() === property) found = style.slice(colon + 1, i).trim();
    start = i + 1;
  }
  return found;
}

/** True when a `background` or `background-color` value paints something: an opaque colour, or an image. */
export function paintsBackground(value: string): boolean {
  const lower = value.toLowerCase();
  if (lower.includes("url(") || lower.includes("gradient(")) return true;
  let depth = 0;
  let word = "";
  for (const c of `${lower} `) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === " " || c === "\t" || c === "\n")) {
      const color = word && word !== "!important" ? parseColor(word) : null;
      if (color && color.a > 0) return true;
      word = "";
    } else word += c;
  }
  return false;
}
