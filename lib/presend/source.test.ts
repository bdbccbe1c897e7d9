import { describe, expect, it } from "vitest";
import { runChecks } from "./index";
import { checkClientSupport } from "./client-support";
import { extractLinks } from "./links";
import { elementPath, hasMergeVariable, linkTexts, parseSource } from "./source";
import { checkUnsubscribe } from "./text-part";
import { presendDraft } from "@/lib/schemas/presend";

/**
 * Finding 2 of the second review: building each finding's element path scanned every sibling,
 * and placing a finding scanned to the end of its line, so a draft of many links on one line
 * took minutes. These inputs are sized so the linear code takes milliseconds to a few hundred,
 * and the quadratic code it replaced many seconds: each test's own timeout is the bound.
 */
const LINEAR = { timeout: 5000 };

describe("html source, in linear time", () => {
  it("places 20,000 links on one line, each with its nth-of-type path", LINEAR, () => {
    const html = `<body><p>${'<a href="http://acme.test/x">x</a>'.repeat(20_000)}</p></body>`;
    const links = extractLinks(parseSource(html));
    expect(links).toHaveLength(20_000);
    expect(links[19_999]!.place).toMatchObject({ line: 1, column: 10 + 19_999 * 34, excerpt: '<a href="http://acme.test/x">', path: "body > p > a:nth-of-type(20000)" });
  });

  it("gives the same paths as before: nth-of-type among same-named siblings only, ids end the path", () => {
    const source = parseSource('<table><tr><td>a</td><td><span>x</span><a href="#">1</a><span id="s1"><a href="#">2</a></span></td></tr></table>');
    const paths = source.elements.filter((e) => e.name === "a").map((e) => elementPath(e));
    expect(paths).toEqual(["table > tr > td:nth-of-type(2) > a", "span#s1 > a"]);
  });

  it("counts one place per element that uses a feature, for 20,000 alike elements", LINEAR, () => {
    const html = '<div style="display:flex">x</div>\n'.repeat(20_000);
    const flex = checkClientSupport(parseSource(html)).find((f) => f.rule === "client:css-display-flex");
    expect(flex).toMatchObject({ count: 20_000, place: { line: 1, column: 1 } });
  });

  it("finds merge variables without rescanning from every {{", LINEAR, () => {
    expect(hasMergeVariable("{{".repeat(60_000))).toBe(false);
    expect(hasMergeVariable(`${"{{".repeat(60_000)}x}}`)).toBe(true);
    for (const [value, expected] of [["{{name}}", true], ["{{{name}}}", true], ["{{}}", true], ["a {{b} c}}", false], ["{ {x}}", false], ["{{a}b}}", false], ["https://x.test/{{ id }}/y", true], ["no", false]] as const) {
      expect(hasMergeVariable(value), value).toBe(expected);
    }
  });

  it("looks for an unsubscribe merge tag without trying every split of a run of spaces", LINEAR, () => {
    const draft = presendDraft.parse({ subject: "s", text: `{{${" ".repeat(200_000)}x`, isBatch: true });
    expect(checkUnsubscribe(draft, []).map((f) => f.rule)).toEqual(["unsubscribe-missing"]);
    const tagged = presendDraft.parse({ subject: "s", text: "Leave: {{ #unsubscribe }}", isBatch: true, headers: { "List-Unsubscribe": "<https://x.test/u>" } });
    expect(checkUnsubscribe(tagged, []).map((f) => f.rule)).toEqual(["list-unsubscribe-post"]);
  });

  it("gives a link the text inside it, up to the next link, as a browser does with links in links", LINEAR, () => {
    const source = parseSource(`<a href="/1">one <b>bold</b><a href="/2">two</a> after</a>${'<a href="x">'.repeat(500)}deep`);
    const texts = linkTexts(source.document);
    const [one, two] = source.elements.filter((e) => e.name === "a");
    expect(texts.get(one!)).toBe("one bold after");
    expect(texts.get(two!)).toBe("two");
    expect(texts.get(source.elements.filter((e) => e.name === "a").at(-1)!)).toBe("deep");
  });

  it("refuses html nested deeper than 512 elements with a 400 naming draft.html, before any check", LINEAR, () => {
    expect(() => parseSource("<div>".repeat(200_000))).toThrow(expect.objectContaining({ status: 400, param: "draft.html" }));
    expect(() => parseSource(`${"<div>".repeat(500)}${"</span>".repeat(100_000)}`)).not.toThrow();
    expect(runChecks({ subject: "s", html: `${"<table><tr><td>".repeat(150)}x`, text: "x" }).findings.every((f) => f.severity !== "error")).toBe(true);
  });
});
