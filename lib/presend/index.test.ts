import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runChecks } from "./index";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("all pre-send checks of a draft", () => {
  it("finds every kind of problem in the problem fixture, errors first, each placed in the html", () => {
    const html = fixture("problems.html");
    const { findings, links } = runChecks({ subject: "Spring sale", html, isBatch: true });
    const rules = findings.map((f) => f.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        "client:css-display-flex", "client:html-form",
        "link-insecure", "link-text-domain", "link-fragment", "link-javascript",
        "image-alt", "image-size", "image-insecure",
        "text-missing", "unsubscribe-missing",
      ]),
    );
    const severities = findings.map((f) => f.severity);
    expect(severities).toEqual([...severities].sort((a, b) => ["error", "warning", "info"].indexOf(a) - ["error", "warning", "info"].indexOf(b)));
    const lines = html.split("\n");
    for (const f of findings.filter((x) => x.place)) {
      // Every place points at its own excerpt in the source.
      expect(lines[f.place!.line - 1]!.slice(f.place!.column - 1)).toContain(f.place!.excerpt.replace(/…$/, ""));
    }
    expect(findings.find((f) => f.rule === "link-text-domain")!.place).toMatchObject({ line: 15, column: 21 });
    expect(links.map((l) => [l.kind, l.host])).toEqual([["web", "acme.test"], ["web", "login.evil.test"], ["other", null]]);
  });

  it("finds no errors or warnings in the clean fixture with its text part, and nothing at all in plain content", () => {
    const html = fixture("clean.html");
    const text = "Hello Ada, your order 1042 left our warehouse this morning and should arrive on Thursday. Track it at any time on https://acme.test/orders/1042 or write to help@acme.test. Thank you for shopping with us. We hope you enjoy your new kettle as much as we enjoyed packing it.";
    const clean = runChecks({ subject: "Your order has shipped", html, text });
    expect(clean.findings.filter((f) => f.severity !== "info")).toEqual([]);
    // Notes only: caniemail's partial support, and dark mode (its #333 text and png logo sit on the page's own background).
    expect(clean.findings.filter((f) => f.kind !== "clients").map((f) => `${f.rule} ${f.severity}`)).toEqual(["dark-mode-text info", "dark-mode-logo info"]);
    expect(runChecks({ subject: "Hi", html: "<p>Hello <a href=\"https://acme.test\">there</a>.</p>", text: "Hello there: https://acme.test" }).findings).toEqual([]);
  });
});
