import { describe, expect, it } from "vitest";
import { checksOn, errorsFromIssues, replaceErrorsOf, rowErrorsOf } from "./form-errors";

describe("compose form errors", () => {
  it("keeps the first message of each path, keyed by the dotted path", () => {
    expect(
      errorsFromIssues([
        { path: ["to"], message: "needs at least one recipient" },
        { path: ["headers", 1, "value"], message: "must not contain line breaks" },
        { path: ["headers", 1, "value"], message: "is too long" },
      ]),
    ).toEqual({ to: "needs at least one recipient", "headers.1.value": "must not contain line breaks" });
  });

  it("replaces what a checked field and the fields under it say, and keeps the others", () => {
    const previous = { to: "needs at least one recipient", subject: "is required", "from.email": "must be an email address" };
    const checked = { "to.0.email": "must be an email address", subject: "is required", html: "is required" };
    expect(replaceErrorsOf(previous, checked, ["to"])).toEqual({ subject: "is required", "from.email": "must be an email address", "to.0.email": "must be an email address" });
    expect(replaceErrorsOf(previous, {}, ["from"])).toEqual({ to: "needs at least one recipient", subject: "is required" });
    // "to" is not "toName": only the field itself and the paths under it.
    expect(replaceErrorsOf({ toName: "x" }, {}, ["to"])).toEqual({ toName: "x" });
  });

  it("reads the rows of a list, leaving out paths that are not rows (a server's headers.X-Bad)", () => {
    const errors = { "tags.1.value": "is required", "tags.0.name": "is too long", "headers.X-Bad": "must not contain line breaks", "tags.2.other": "x" };
    expect(rowErrorsOf(errors, "tags", ["name", "value"])).toEqual([{ name: "is too long" }, { value: "is required" }]);
    expect(rowErrorsOf(errors, "headers", ["name", "value"])).toBeUndefined();
    expect(rowErrorsOf({ "to.2.email": "must be an email address" }, "to", ["email"])).toEqual([{}, {}, { email: "must be an email address" }]);
  });

  it("checks a typed field on leaving it, then on every change; after a submit on every change only", () => {
    expect(checksOn("change", { touched: false, submitted: false })).toBe(false);
    expect(checksOn("blur", { touched: false, submitted: false })).toBe(true);
    expect(checksOn("change", { touched: true, submitted: false })).toBe(true);
    expect(checksOn("change", { touched: false, submitted: true })).toBe(true);
    expect(checksOn("blur", { touched: true, submitted: true })).toBe(false);
  });
});
