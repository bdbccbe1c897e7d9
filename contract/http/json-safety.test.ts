import { describe, expect, it } from "vitest";
import { findJsonProblem, MAX_JSON_DEPTH, parseJson } from "./json-safety";

describe("findJsonProblem", () => {
  it("names the field holding a NUL, at any depth, in values and keys", () => {
    expect(findJsonProblem({ subject: "a\u0000b" })).toEqual({ param: "subject", message: "subject: must not contain a NUL character (\\u0000)" });
    expect(findJsonProblem({ to: [{ email: "ok@x.test" }, { email: "\u0000" }] })?.param).toBe("to.1.email");
    expect(findJsonProblem({ headers: { "X-A\u0000": "v" } })).toMatchObject({ param: "headers.X-A\\u0000" });
    expect(findJsonProblem("\u0000")?.message).toMatch(/^must not contain/);
  });

  it("refuses nesting deeper than the limit, naming where it went too deep", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = { a: deep };
    expect(findJsonProblem({ data: deep })?.message).toMatch(/nested more than 32 levels/);
    let ok: unknown = "leaf";
    for (let i = 0; i < MAX_JSON_DEPTH - 2; i++) ok = [ok];
    expect(findJsonProblem(ok)).toBeNull();
  });

  it("names a string holding a lone surrogate (no UTF-8 for it: URLs and headers built from it throw)", () => {
    expect(findJsonProblem({ id: "\ud800" })).toEqual({ param: "id", message: "id: must be valid Unicode text (it holds a lone surrogate)" });
    expect(findJsonProblem({ name: "emoji 😀 ok" })).toBeNull();
  });

  it("lets ordinary documents through", () => {
    expect(findJsonProblem({ a: [1, true, null, "text", { b: "ü\u0001" }] })).toBeNull();
  });
});

describe("parseJson", () => {
  it("reports syntax errors and stack-exhausting depth as failures, not throws", () => {
    expect(parseJson("{nope")).toEqual({ ok: false });
    // Whether V8 parses this depth or runs out of stack, the result is a refusal, not a throw.
    const deep = parseJson(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    expect(deep.ok ? findJsonProblem(deep.value)?.message : "not JSON").toMatch(/nested more than|not JSON/);
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});
