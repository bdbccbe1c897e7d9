import { describe, expect, it } from "vitest";
import { SEARCH_QUERY_LIMITS } from "./limits";
import { parseSearchQuery } from "./parse";
import { controlsOf, withControl } from "./format";

const NOW = new Date("2026-11-29T12:00:00Z");
const terms = (q: string) => parseSearchQuery(q, NOW).terms.map(({ raw: _raw, ...t }) => t);
const problems = (q: string) => parseSearchQuery(q, NOW).problems;

describe("parseSearchQuery", () => {
  it("reads every field term", () => {
    expect(terms("to:Ada@Example.com from:ops@ cc:bob subject:invoice id:msg_1 has:attachment direction:inbound")).toEqual([
      { negated: false, field: "to", value: "ada@example.com" },
      { negated: false, field: "from", value: "ops@" },
      { negated: false, field: "cc", value: "bob" },
      { negated: false, field: "subject", value: "invoice" },
      { negated: false, field: "id", value: "msg_1" },
      { negated: false, field: "has", value: "attachment" },
      { negated: false, field: "direction", value: "inbound" },
    ]);
  });

  it("reads tags by name, name=value and the older name:value", () => {
    expect(terms("tag:plan tag:plan=pro tag:kind:welcome")).toEqual([
      { negated: false, field: "tag", name: "plan", value: null },
      { negated: false, field: "tag", name: "plan", value: "pro" },
      { negated: false, field: "tag", name: "kind", value: "welcome" },
    ]);
  });

  it("reads status words and the interface's event words onto the dashboard's statuses", () => {
    expect(terms("status:bounced status:Delivered status:bounce status:delivery status:open status:complaint status:delivery_delayed status:inbound_received").map((t) => "value" in t && t.value)).toEqual([
      "bounced", "delivered", "bounced", "delivered", "delivered", "complained", "delayed", "received",
    ]);
  });

  it("negates any term with a leading -", () => {
    expect(terms("-tag:beta -status:failed -\"test run\" -word")).toEqual([
      { negated: true, field: "tag", name: "beta", value: null },
      { negated: true, field: "status", value: "failed" },
      { negated: true, field: "text", value: "test run", phrase: true },
      { negated: true, field: "text", value: "word", phrase: false },
    ]);
    // A lone dash is a word, not a negation of nothing.
    expect(terms("a - b").map((t) => "value" in t && t.value)).toEqual(["a", "-", "b"]);
  });

  it("keeps quoted phrases whole, after a key too, with typographic quotes", () => {
    expect(terms('"order shipped" subject:"reset your password" “two words”')).toEqual([
      { negated: false, field: "text", value: "order shipped", phrase: true },
      { negated: false, field: "subject", value: "reset your password" },
      { negated: false, field: "text", value: "two words", phrase: true },
    ]);
  });

  it("explains an unclosed quote and still searches the phrase", () => {
    const parsed = parseSearchQuery('"order shipped', NOW);
    expect(parsed.terms.map((t) => "value" in t && t.value)).toEqual(["order shipped"]);
    expect(parsed.problems[0]!.why).toMatch(/not closed/);
  });

  it("reads dates, date-times and ages", () => {
    const at = (q: string) => terms(q).map((t) => ("at" in t ? t.at : null));
    expect(at("after:2026-11-01 before:2026-11-02T09:30 after:2026-11-02T09:30+02:00")).toEqual([
      "2026-11-01T00:00:00.000Z", "2026-11-02T09:30:00.000Z", "2026-11-02T07:30:00.000Z",
    ]);
    expect(at("after:30m after:2h after:7d after:4w")).toEqual([
      "2026-11-29T11:30:00.000Z", "2026-11-29T10:00:00.000Z", "2026-11-22T12:00:00.000Z", "2026-11-01T12:00:00.000Z",
    ]);
  });

  it("explains what it does not understand and keeps the rest", () => {
    const parsed = parseSearchQuery("tag:plan=pro colour:red status:sleepy after:yesterday has:pets direction:sideways tag:bad!name to: invoice", NOW);
    expect(parsed.terms.map((t) => t.raw)).toEqual(["tag:plan=pro", "invoice"]);
    expect(parsed.problems.map((p) => p.term)).toEqual(["colour:red", "status:sleepy", "after:yesterday", "has:pets", "direction:sideways", "tag:bad!name", "to:"]);
    for (const p of parsed.problems) {
      expect(p.why.length).toBeGreaterThan(5);
      expect(p.example.length).toBeGreaterThan(3);
    }
    expect(parsed.problems[0]!.why).toMatch(/colour: is not a search term/);
  });

  it("reads a time or a URL as a free word, not as a key", () => {
    expect(terms("10:30").map((t) => t.field)).toEqual(["text"]);
  });

  it("stops at the term limit, saying so", () => {
    const parsed = parseSearchQuery(Array.from({ length: SEARCH_QUERY_LIMITS.maxTerms + 5 }, (_, i) => `w${i}`).join(" "), NOW);
    expect(parsed.terms).toHaveLength(SEARCH_QUERY_LIMITS.maxTerms);
    expect(parsed.problems.at(-1)!.why).toMatch(/at most 20 terms/);
  });

  it.each([
    ["quotes", '"'.repeat(SEARCH_QUERY_LIMITS.maxLength)],
    ["dashes", "-".repeat(SEARCH_QUERY_LIMITS.maxLength)],
    ["letters before no colon", "a".repeat(SEARCH_QUERY_LIMITS.maxLength)],
    ["keys", "a:".repeat(SEARCH_QUERY_LIMITS.maxLength / 2)],
    ["unclosed key quotes", 'a:"'.repeat(SEARCH_QUERY_LIMITS.maxLength / 3)],
    ["spaces and dashes", "- ".repeat(SEARCH_QUERY_LIMITS.maxLength / 2)],
    ["far more than the limit", "x:y ".repeat(100_000)],
  ])("pathological input (%s) costs steps linear in the bounded length", (_, text) => {
    const { steps } = parseSearchQuery(text, NOW);
    expect(steps).toBeLessThanOrEqual(3 * SEARCH_QUERY_LIMITS.maxLength + SEARCH_QUERY_LIMITS.maxTerms + 2);
  });
});

describe("the controls and the query in step", () => {
  it("reads the controls out of the query", () => {
    expect(controlsOf(parseSearchQuery("-status:failed status:bounced direction:outbound tag:plan=pro after:2026-11-01 word", NOW).terms)).toEqual({
      status: "bounced",
      direction: "outbound",
      tag: "plan:pro",
      after: "2026-11-01T00:00:00.000Z",
    });
  });

  it("writes a control into the query, keeping everything else as typed", () => {
    expect(withControl('"order shipped" status:sent -status:failed', "status", "bounced")).toBe('"order shipped" -status:failed status:bounced');
    expect(withControl("status:sleepy invoice", "status", null)).toBe("invoice");
    expect(withControl("invoice", "tag", "plan:pro")).toBe("invoice tag:plan=pro");
    expect(withControl("", "after", "2026-11-01T00:00:00.000Z")).toBe("after:2026-11-01T00:00:00.000Z");
  });
});
