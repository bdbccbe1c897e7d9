import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkClientSupport } from "./client-support";
import { parseSource } from "./source";

const html = [
  "<!doctype html>",
  "<html><head>",
  "<style>",
  "  .card { border-radius: 8px; }",
  "  .row { display: flex; }",
  "</style>",
  "</head>",
  '<body bgcolor="#ffffff">',
  '<div class="row" style="display:grid; word-wrap: break-word">one</div>',
  '<form action="https://acme.test/s"><input type="text" name="q"></form>',
  '<div style="display:grid">two</div>',
  "</body></html>",
].join("\n");

const findings = checkClientSupport(parseSource(html));
const slug = (s: string) => findings.find((f) => f.rule === `client:${s}`);

describe("email-client support (caniemail data)", () => {
  it("places a feature used in a <style> block at its line and column in the html", () => {
    const flex = slug("css-display-flex");
    expect(flex).toMatchObject({ kind: "clients", severity: "warning", place: { line: 5, column: 10, excerpt: "display: flex; }" } });
    expect(flex!.message).toMatch(/^"display:flex" is not supported in Outlook \(Windows/);
    expect(flex!.url).toBe("https://www.caniemail.com/features/css-display-flex/");
  });

  it("places an inline-style feature at its element, counts every use, and groups clients by family", () => {
    const grid = slug("css-display-grid")!;
    expect(grid).toMatchObject({ severity: "warning", count: 2, place: { line: 9, column: 1, path: "body > div:nth-of-type(1)" } });
    const outlook = grid.clients!.find((c) => c.family === "Outlook")!;
    expect(outlook.none).toContain("Windows");
    expect(new Set(grid.clients!.map((c) => c.family)).size).toBe(grid.clients!.length);
  });

  it("flags unsupported elements", () => {
    expect(slug("html-form")).toMatchObject({ severity: "warning", place: { line: 10, column: 1, excerpt: '<form action="https://acme.test/s">', path: "body > form" } });
    expect(slug("html-input-text")).toMatchObject({ place: { line: 10, column: 36, excerpt: '<input type="text" name="q">' } });
  });

  it("does not fail on a feature some clients were never tested with, and leaves those clients out", () => {
    // caniemail itself throws "Feature word-wrap not found on thunderbird.macos" here.
    const wrap = slug("css-word-wrap")!;
    expect(wrap.clients!.find((c) => c.family === "Outlook")!.none).toContain("Windows");
    expect(wrap.clients!.map((c) => c.family)).not.toContain("Thunderbird");
  });

  it("reports <body> only when it carries attributes a client would drop", () => {
    expect(slug("html-body")).toMatchObject({ place: { line: 8, column: 1 } });
    const bare = checkClientSupport(parseSource("<html><body><p>Hello</p></body></html>"));
    expect(bare.find((f) => f.rule === "client:html-body")).toBeUndefined();
  });

  it("has no warnings for a conventional table email, and nothing at all for plain paragraphs", () => {
    const clean = checkClientSupport(parseSource(readFileSync(new URL("./fixtures/clean.html", import.meta.url), "utf8")));
    expect(clean.filter((f) => f.severity !== "info")).toEqual([]);
    expect(checkClientSupport(parseSource('<p>Hello <a href="https://acme.test">there</a>.</p>'))).toEqual([]);
  });
});

describe("email-client support of repeated elements", () => {
  it("checks each distinct element once but reports every place it is used, first place first", () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<p><img src="https://cdn.acme.test/p/${i}.webp" alt="Product ${i}" style="display:flex"> <a href="https://acme.test/${i}">${i}</a></p>`);
    const html = `<style>.x { color: red }</style>\n${rows.join("\n")}`;
    const found = checkClientSupport(parseSource(html));
    const flex = found.find((f) => f.rule === "client:css-display-flex")!;
    expect(flex).toMatchObject({ count: 40, place: { line: 2, column: 4, path: "p:nth-of-type(1) > img" } });
    expect(found.find((f) => f.rule === "client:image-webp")).toMatchObject({ count: 40 });
    expect(found.find((f) => f.rule === "client:html-style")).toMatchObject({ place: { line: 1, column: 1, excerpt: "<style>" } });
  });
});
