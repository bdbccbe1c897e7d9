import { describe, expect, it } from "vitest";
import { fieldPath, summarizeErrorBody } from "./error-body";

describe("summarizeErrorBody", () => {
  const cases: [string, unknown, { message: string | null; code: string | null; param: string | null }][] = [
    ["ours", { error: { message: "to.0.email: bad", code: "validation_error", param: "to.0.email" } }, { message: "to.0.email: bad", code: "validation_error", param: "to.0.email" }],
    ["flat", { message: "Not found", code: "not_found" }, { message: "Not found", code: "not_found", param: null }],
    ["error text", { error: "Missing header" }, { message: "Missing header", code: null, param: null }],
    ["OAuth-like", { error: "invalid_token", error_description: "The key has expired" }, { message: "The key has expired", code: null, param: null }],
    [
      "problem+json with detail only",
      { type: "about:blank", title: "Not Found", status: 404, detail: "No email with id 9" },
      { message: "No email with id 9", code: null, param: null },
    ],
    [
      "problem+json with errors",
      { title: "Unprocessable", errors: [{ detail: "must be in the future", pointer: "#/scheduled_at" }] },
      { message: "must be in the future", code: null, param: "scheduledAt" },
    ],
    [
      "FastAPI",
      { detail: [{ loc: ["body", "to", 0, "email"], msg: "value is not a valid email address", type: "value_error.email" }] },
      { message: "value is not a valid email address", code: "value_error.email", param: "to.0.email" },
    ],
    ["Rails map", { errors: { first_name: ["is too long"] } }, { message: "is too long", code: null, param: "firstName" }],
    [
      "nested errors under error",
      { error: { message: "Validation failed", code: "invalid", details: [{ field: "subject", message: "is required" }] } },
      { message: "is required", code: "invalid", param: "subject" },
    ],
    ["array of strings", ["Something is wrong"], { message: "Something is wrong", code: null, param: null }],
    ["a JS error's name is not a field", { name: "ValidationError", message: "bad" }, { message: "bad", code: null, param: null }],
    ["numeric codes are not codes", { code: 40001, message: "bad" }, { message: "bad", code: null, param: null }],
  ];
  for (const [name, body, expected] of cases) {
    it(name, () => expect(summarizeErrorBody(body)).toEqual(expected));
  }

  it("reads a one-line text body, never a page or a stack trace", () => {
    expect(summarizeErrorBody(undefined, "Quota exceeded for today").message).toBe("Quota exceeded for today");
    expect(summarizeErrorBody(undefined, "<!doctype html><title>502</title>").message).toBeNull();
    expect(summarizeErrorBody(undefined, "Error\n  at x (y.js:1)").message).toBeNull();
    expect(summarizeErrorBody(undefined, "").message).toBeNull();
  });
});

describe("fieldPath", () => {
  it("normalises pointers, brackets and loc arrays to the dashboard's dotted names", () => {
    expect(fieldPath("/to/0/email")).toBe("to.0.email");
    expect(fieldPath("#/reply_to/1")).toBe("replyTo.1");
    expect(fieldPath("to[0].email")).toBe("to.0.email");
    expect(fieldPath("body.template_id")).toBe("templateId");
    expect(fieldPath(["query", "limit"])).toBe("limit");
    expect(fieldPath("/a~1b")).toBe("a/b");
  });

  it("refuses what is not a field name", () => {
    expect(fieldPath("body")).toBeNull();
    expect(fieldPath("the whole thing is wrong")).toBeNull();
    expect(fieldPath(42)).toBeNull();
  });
});
