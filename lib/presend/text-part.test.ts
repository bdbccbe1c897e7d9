import { describe, expect, it } from "vitest";
import { presendDraft } from "@/lib/schemas/presend";
import { extractLinks } from "./links";
import { parseSource } from "./source";
import { checkTextPart, checkUnsubscribe } from "./text-part";

const draft = (over: Record<string, unknown>) => presendDraft.parse({ subject: "Hello", ...over });
const sentence = "Your order left our warehouse this morning and should arrive on Thursday. ";
const longHtml = `<html><head><title>Ignored title</title><style>.x{color:red}</style></head><body><p>${sentence.repeat(6)}</p></body></html>`;

const rules = (d: ReturnType<typeof draft>) => {
  const source = d.html ? parseSource(d.html) : null;
  return [...checkTextPart(d, source), ...checkUnsubscribe(d, source ? extractLinks(source) : [])].map((f) => [f.rule, f.severity]);
};

describe("text part checks", () => {
  it("flags an html message without a text part", () => {
    expect(rules(draft({ html: longHtml }))).toEqual([["text-missing", "warning"]]);
  });

  it("flags a text part much shorter than the html's visible text (style and title not counted)", () => {
    expect(rules(draft({ html: longHtml, text: "See the html." }))).toEqual([["text-short", "warning"]]);
    expect(rules(draft({ html: longHtml, text: sentence.repeat(5) }))).toEqual([]);
    const tiny = draft({ html: `<p>${sentence.repeat(200)}</p>`, text: "Hi" });
    expect(checkTextPart(tiny, parseSource(tiny.html!))[0]!.message).toMatch(/^The text part is under 1% as long as the html's text \(2 against 14,799 characters\)/);
  });

  it("does not compare a short html notice with its text", () => {
    expect(rules(draft({ html: "<p>Your code is 123456.</p>", text: "123456" }))).toEqual([]);
  });

  it("flags a message without any body, and an empty subject", () => {
    expect(rules(draft({ subject: " " }))).toEqual([
      ["subject-empty", "warning"],
      ["body-empty", "error"],
    ]);
  });
});

describe("unsubscribe checks (batches only)", () => {
  const withLink = `<p>${sentence}</p><p><a href="https://acme.test/u?id=1">Unsubscribe</a></p>`;
  const text = sentence;

  it("says nothing for a single message", () => {
    expect(rules(draft({ html: "<p>hi</p>", text: "hi" }))).toEqual([]);
  });

  it("is an error for a batch with neither a link nor the header", () => {
    expect(rules(draft({ html: `<p>${sentence}</p>`, text, isBatch: true }))).toEqual([["unsubscribe-missing", "error"]]);
  });

  it("wants the List-Unsubscribe header beside a link, and one-click beside the header", () => {
    expect(rules(draft({ html: withLink, text, isBatch: true }))).toEqual([["list-unsubscribe-header", "warning"]]);
    const headers = { "list-unsubscribe": "<https://acme.test/u?id=1>" };
    expect(rules(draft({ html: withLink, text, isBatch: true, headers }))).toEqual([["list-unsubscribe-post", "info"]]);
    expect(rules(draft({ html: withLink, text, isBatch: true, headers: { ...headers, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }))).toEqual([]);
  });

  it("wants a visible link beside the header; a merge-variable link or one in the text part counts", () => {
    const headers = { "List-Unsubscribe": "<mailto:u@acme.test>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    expect(rules(draft({ html: `<p>${sentence}</p>`, text, isBatch: true, headers }))).toEqual([["unsubscribe-link", "warning"]]);
    expect(rules(draft({ html: `<p>${sentence}</p><a href="{{unsubscribe_url}}">Leave</a>`, text, isBatch: true, headers }))).toEqual([]);
    expect(rules(draft({ text: `${sentence} Opt out: https://acme.test/o`, isBatch: true, headers }))).toEqual([]);
  });
});
