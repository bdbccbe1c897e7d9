import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bestTimeMs } from "@/lib/test/best-time";
import { checkDarkMode } from "./dark-mode";
import { parseSource } from "./source";

const check = (html: string) => checkDarkMode(parseSource(html));
const rules = (html: string) => check(html).map((f) => f.rule);

describe("the dark-mode note of the pre-send checks", () => {
  it("notes dark text with nothing behind it, at its first place, counting every place", () => {
    const html = '<table><tr><td style="color:#333333">One</td></tr></table>\n<p style="font-size:14px; color: rgb(0,0,0)">Two</p><font color="#000">Three</font>';
    const [note] = check(html);
    expect(note).toMatchObject({ kind: "dark", rule: "dark-mode-text", severity: "info", count: 3, place: { line: 1, column: 12, excerpt: '<td style="color:#333333">' } });
    expect(note!.message).toMatch(/^Dark text with no background behind it \(3 places\), and no dark styles: .*Consider a background colour/);
  });

  it("leaves dark text that has a background of its own or behind it", () => {
    expect(check('<table bgcolor="#ffffff"><tr><td style="color:#333">x</td></tr></table>')).toEqual([]);
    expect(check('<div style="background:#fff url(a.png)"><p style="color:#000">x</p></div>')).toEqual([]);
    expect(check('<p style="background-color: rgb(250, 250, 250); color:#111">x</p>')).toEqual([]);
    expect(check('<body bgcolor="white"><p style="color:#000">x</p></body>')).toEqual([]);
  });

  it("leaves light or mid text, and takes a transparent background for none", () => {
    expect(check('<p style="color:#ffffff">x</p><p style="color:#2563eb">y</p><p>z</p>')).toEqual([]);
    expect(rules('<div style="background:transparent"><p style="color:#000">x</p></div>')).toEqual(["dark-mode-text"]);
    expect(rules('<div bgcolor="rgba(0,0,0,0)"><p style="color:#000">x</p></div>')).toEqual(["dark-mode-text"]);
  });

  it("notes a logo that can be transparent with nothing behind it, not a photo or a logo on a background", () => {
    expect(rules('<img src="https://cdn.acme.test/logo.png" alt="Acme" width="120" height="40">')).toEqual(["dark-mode-logo"]);
    expect(rules('<img src="data:image/svg+xml;base64,AAAA" alt="Acme logo">')).toEqual(["dark-mode-logo"]);
    expect(rules('<img class="brand-mark" src="https://cdn.acme.test/a.gif?v=2">')).toEqual(["dark-mode-logo"]);
    expect(check('<img src="https://cdn.acme.test/logo.jpg" alt="Acme">')).toEqual([]);
    expect(check('<img src="https://cdn.acme.test/kettle.png" alt="A kettle">')).toEqual([]);
    expect(check('<td bgcolor="#ffffff"><img src="https://cdn.acme.test/logo.png" alt="Acme"></td>')).toEqual([]);
  });

  it("says nothing when the email has dark styles of its own", () => {
    const body = '<p style="color:#000">x</p><img src="logo.png">';
    expect(check(`<style>@media (prefers-color-scheme: dark) { p { color: #fff !important } }</style>${body}`)).toEqual([]);
    expect(check(`<meta name="color-scheme" content="light dark">${body}`)).toEqual([]);
    expect(check(`<style>[data-ogsc] p { color: #fff }</style>${body}`)).toEqual([]);
    expect(rules(`<meta name="color-scheme" content="light">${body}`)).toEqual(["dark-mode-text", "dark-mode-logo"]);
  });

  it("notes the conventional table email of the fixtures: #333 text and a png logo on the page's own background", () => {
    const html = readFileSync(new URL("./fixtures/clean.html", import.meta.url), "utf8");
    expect(rules(html)).toEqual(["dark-mode-text", "dark-mode-logo"]);
  });

  it("checks 30,000 sibling elements in linear time, and deep nesting without walking up", () => {
    const flat = (n: number) => parseSource('<p style="color:#000">x</p>'.repeat(n));
    const [small, large, deep] = [flat(3_000), flat(30_000), parseSource('<div style="color:#000">'.repeat(500))];
    const smallMs = bestTimeMs(() => checkDarkMode(small));
    const largeMs = bestTimeMs(() => checkDarkMode(large));
    expect(largeMs).toBeLessThan(1_000);
    expect(largeMs).toBeLessThan(smallMs * 30 + 20);
    expect(bestTimeMs(() => checkDarkMode(deep))).toBeLessThan(200);
  });
});
