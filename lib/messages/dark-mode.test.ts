import { describe, expect, it } from "vitest";
import { bestTimeMs, expectLinearTime } from "@/lib/test/best-time";
import { cssHasDarkStyles, luminance, parseColor, partialDarkColor, recolorCssPartially } from "./dark-mode";

describe("cssHasDarkStyles", () => {
  it("finds the dark styles clients apply", () => {
    expect(cssHasDarkStyles("@media (prefers-color-scheme: dark) { .a { color: #fff } }")).toBe(true);
    expect(cssHasDarkStyles("@media screen and (PREFERS-COLOR-SCHEME:DARK){.a{color:#fff}}")).toBe(true);
    expect(cssHasDarkStyles("[data-ogsc] .title { color: #fff !important }")).toBe(true);
    expect(cssHasDarkStyles(":root { color-scheme: light dark; supported-color-schemes: light dark; }")).toBe(true);
  });

  it("does not take light-only rules or other mentions for dark styles", () => {
    expect(cssHasDarkStyles("@media (prefers-color-scheme: light) { .a { color: #000 } }")).toBe(false);
    expect(cssHasDarkStyles(":root { color-scheme: light only }")).toBe(false);
    expect(cssHasDarkStyles(".dark { color: #000 } .color-scheme { margin: 0 }")).toBe(false);
    expect(cssHasDarkStyles("")).toBe(false);
  });

  it("reads a sheet of repeated near-misses in linear time", () => {
    const unit = "prefers-color-scheme:light;color-scheme;";
    expectLinearTime((n) => cssHasDarkStyles(unit.repeat(n)), 200_000, 1_000);
  });
});

describe("colours", () => {
  it("parses the ways email writes a colour", () => {
    expect(parseColor("#fff")).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor(" #1A2b3C ")).toEqual({ r: 26, g: 43, b: 60, a: 1 });
    expect(parseColor("rgba(0, 0, 0, 0)")).toMatchObject({ a: 0 });
    expect(parseColor("rgb(10 20 30 / 50%)")).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
    expect(parseColor("White")).toMatchObject({ r: 255 });
    expect(parseColor("url(x.png)")).toBeNull();
    expect(parseColor("#ggg")).toBeNull();
  });

  it("darkens light backgrounds and lightens dark text, and leaves the rest, as Outlook.com does", () => {
    const white = partialDarkColor("#ffffff", "background")!;
    expect(luminance(parseColor(white)!)).toBeLessThan(0.05);
    const black = partialDarkColor("#000", "text")!;
    expect(luminance(parseColor(black)!)).toBeGreaterThan(0.6);
    expect(partialDarkColor("#2563eb", "background")).toBeNull(); // a brand blue stays
    expect(partialDarkColor("#111827", "background")).toBeNull(); // already dark
    expect(partialDarkColor("#ffffff", "text")).toBeNull(); // light text stays
    expect(partialDarkColor("transparent", "background")).toBeNull();
    // The hue is kept: a pale yellow background becomes a dark yellow-brown one.
    const { r, g, b } = parseColor(partialDarkColor("#fff8dc", "background")!)!;
    expect(r).toBeGreaterThan(b);
    expect(g).toBeGreaterThan(b);
  });

  it("recolours the declarations of a style attribute or sheet, not selectors or other properties", () => {
    expect(recolorCssPartially("color:#000; background: #fff url(a.png) no-repeat; border-color:#000")).toMatch(/^color:#[0-9a-f]{6}; background: #[0-9a-f]{6} url\(a.png\) no-repeat; border-color:#000$/);
    expect(recolorCssPartially("a.white{background-color:rgb(255, 255, 255) !important}")).toMatch(/^a\.white\{background-color:#[0-9a-f]{6} !important\}$/);
    expect(recolorCssPartially("@media (max-width: 600px) { .x { padding: 0 } }")).toBeNull();
    expect(recolorCssPartially("color: #2563eb")).toBeNull();
  });

  it("recolours a megabyte of declarations in linear time", () => {
    const unit = "color:#000;background:#fff;x:y;{}";
    expectLinearTime((n) => recolorCssPartially(unit.repeat(n)), 30_000, 2_000);
    // Colons far apart: each declaration is searched for its colon within itself only.
    expect(bestTimeMs(() => recolorCssPartially(";".repeat(300_000) + "color:#000"))).toBeLessThan(500);
  });
});
