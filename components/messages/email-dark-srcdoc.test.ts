import { describe, expect, it } from "vitest";
import { bestTimeMs } from "@/lib/test/best-time";
import { rewriteEmailHtml } from "@/lib/messages/email-html";
import { effectiveScheme } from "./email-scheme";
import { emailSrcDoc } from "./email-document";

/** The dark-mode preview (issue 30): what the frame reads of an email, and the srcdoc of each scheme. */

const OWN_DARK = `<html><head><meta name="color-scheme" content="light dark"><style>.card{background:#fff}@media (prefers-color-scheme: dark){.card{background:#111827}}</style></head><body><div class="card">Hi</div></body></html>`;
const NO_DARK = `<body bgcolor="#ffffff" text="#000000"><table bgcolor="#FFF"><tr><td style="background-color:#f4f4f4;color:#333;padding:8px"><font color="#000">Hello</font><img src="https://cdn.example/logo.png"></td></tr></table><style>.x{background:#fff url(https://t.example/bg.png)}</style></body>`;

describe("what the frame reads of an email", () => {
  it("finds dark styles in a <style> sheet, an SVG's sheet, or a color-scheme meta naming dark", () => {
    expect(rewriteEmailHtml(OWN_DARK, { blockImages: true })).toMatchObject({ darkStyles: true, colorScheme: true });
    expect(rewriteEmailHtml("<style>@media (prefers-color-scheme: dark){p{color:#fff}}</style><p>x", { blockImages: false }).darkStyles).toBe(true);
    expect(rewriteEmailHtml("<svg><style>[data-ogsc] p{color:#fff}</style></svg>", { blockImages: false }).darkStyles).toBe(true);
    expect(rewriteEmailHtml('<meta name="color-scheme" content="light dark"><p>x', { blockImages: false })).toMatchObject({ darkStyles: true, colorScheme: true });
  });

  it("does not take text, attributes or a light-only scheme for dark styles", () => {
    expect(rewriteEmailHtml("<p>@media (prefers-color-scheme: dark) is how</p>", { blockImages: true }).darkStyles).toBe(false);
    expect(rewriteEmailHtml('<p title="prefers-color-scheme: dark">x</p>', { blockImages: true }).darkStyles).toBe(false);
    expect(rewriteEmailHtml('<meta name="color-scheme" content="light">', { blockImages: true })).toMatchObject({ darkStyles: false, colorScheme: true });
    expect(rewriteEmailHtml(NO_DARK, { blockImages: true })).toMatchObject({ darkStyles: false, colorScheme: false });
  });

  it("recolours light backgrounds and dark text for the partial scheme, and still blocks remote images", () => {
    const { html, remote } = rewriteEmailHtml(NO_DARK, { blockImages: true, recolor: true });
    expect(remote).toBe(2);
    expect(html).not.toMatch(/bgcolor="#f{3,6}"/i);
    expect(html).not.toContain('text="#000000"');
    expect(html).not.toContain('<font color="#000">');
    expect(html).toMatch(/style="background-color:#[0-9a-f]{6};color:#[0-9a-f]{6};padding:8px"/);
    expect(html).toMatch(/\.x\{background:#[0-9a-f]{6} url\(about:blank#remote-https:\/\/t\.example\/bg\.png\)\}/);
    expect(html).toContain('data-remote-src="https://cdn.example/logo.png"');
    // Without `recolor` the colours are the email's own.
    expect(rewriteEmailHtml(NO_DARK, { blockImages: true }).html).toContain('<font color="#000">');
  });
});

describe("the srcdoc of each scheme", () => {
  it("light: a white page in the light scheme", () => {
    expect(emailSrcDoc(NO_DARK)).toContain("<style>html{color-scheme:light}body{");
    expect(emailSrcDoc(NO_DARK, { scheme: "light" })).toContain("background:#fff;color:#111");
  });

  it("dark: the page follows the dark scheme unless the email declares its own, and its dark media query is kept", () => {
    const doc = emailSrcDoc(NO_DARK, { scheme: "dark" });
    expect(doc).toContain(":root{color-scheme:light dark}body{");
    expect(doc).toContain("background:Canvas;color:CanvasText");
    const own = emailSrcDoc(OWN_DARK, { scheme: "dark" });
    expect(own).not.toContain(":root{color-scheme:light dark}");
    expect(own).toContain("@media (prefers-color-scheme: dark){.card{background:#111827}}");
  });

  it("inverted: the page is inverted and pictures are inverted back, only for an email without dark styles", () => {
    const doc = emailSrcDoc(NO_DARK, { scheme: "inverted" });
    expect(doc).toContain("html{color-scheme:light;background:#fff;filter:invert(1) hue-rotate(180deg)}");
    expect(doc).toContain('img,picture,video,svg,[background],[style*="url(" i]{filter:invert(1) hue-rotate(180deg)}');
    expect(emailSrcDoc(OWN_DARK, { scheme: "inverted" })).not.toContain("invert(1)");
    expect(effectiveScheme("inverted", true)).toBe("dark");
    expect(effectiveScheme("partial", false)).toBe("partial");
  });

  it("partial: a dark page and the email's colours recoloured, only for an email without dark styles", () => {
    const doc = emailSrcDoc(NO_DARK, { scheme: "partial" });
    expect(doc).toContain("html{color-scheme:dark}body{");
    expect(doc).not.toContain('<font color="#000">');
    expect(emailSrcDoc(OWN_DARK, { scheme: "partial" })).toContain(".card{background:#fff}");
  });

  it("keeps the CSP first in every scheme: no scripts, no remote images", () => {
    for (const scheme of ["light", "dark", "inverted", "partial"] as const) {
      const doc = emailSrcDoc(NO_DARK, { scheme });
      expect(doc.indexOf("Content-Security-Policy")).toBeLessThan(doc.indexOf("<style>"));
      expect(doc).toContain("script-src 'none'");
      expect(doc).toMatch(/img-src data: cid:;/);
    }
  });

  it("builds the partial srcdoc of 300 KB of colour attributes in linear time", () => {
    const unit = '<td bgcolor="#fff" style="color:#000">';
    emailSrcDoc(unit.repeat(500), { scheme: "partial" });
    const small = bestTimeMs(() => emailSrcDoc(unit.repeat(800), { scheme: "partial" }));
    const large = bestTimeMs(() => emailSrcDoc(unit.repeat(8_000), { scheme: "partial" }));
    expect(large).toBeLessThan(1_000);
    expect(large).toBeLessThan(small * 30 + 20);
  });
});
