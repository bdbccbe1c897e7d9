import { describe, expect, it } from "vitest";
import { formFields, getPath, innerNames, setPath } from "./merge-data";
import { analyzeTemplate, templateVariables } from "./variables";

describe("templateVariables", () => {
  it("reads every tag form, with Mustache's own parser", () => {
    expect(templateVariables({ subject: "Welcome to {{company}}, {{ first_name }}!", html: "<p>{{{intro}}}</p><p>{{& raw}}</p>", text: "{{user.email}}" })).toEqual([
      "company", "first_name", "intro", "raw", "user.email",
    ]);
  });

  it("names what is inside a section relative to it, inverted sections included", () => {
    expect(templateVariables({ text: "{{#items}}{{name}} × {{qty}}{{/items}}{{^items}}Nothing{{/items}}{{^vip}}{{offer}}{{/vip}}" })).toEqual([
      "items", "items[].name", "items[].qty", "vip", "offer",
    ]);
  });

  it("ignores comments, partials and changed delimiters, and survives a part that does not parse", () => {
    expect(templateVariables({ html: "{{! note }}{{> footer}}{{=<% %>=}}<% name %>", text: "{{#open}}never closed", subject: "{{ok}}" })).toEqual(["ok", "name"]);
  });

  it("lists each name once, in order of first use across subject, html and text", () => {
    expect(templateVariables({ subject: "{{b}} {{a}}", html: "{{a}} {{c}}", text: "{{c}} {{b}}" })).toEqual(["b", "a", "c"]);
  });
});

describe("analyzeTemplate", () => {
  it("flags value tags the data leaves empty, never sections or names inside one that does not render", () => {
    const parts = { subject: "Hi {{first}} {{last}}", text: "{{#items}}{{name}}: {{price}}{{/items}}{{#vip}}{{perk}}{{/vip}}" };
    expect(analyzeTemplate(parts, { first: "Ann", last: null, items: [{ name: "Tea", price: "3" }, { name: "Cup" }] }).missing).toEqual(["last", "items[].price"]);
    expect(analyzeTemplate(parts, {}).missing).toEqual(["first", "last"]);
  });

  it("resolves dotted names and names found in an outer context", () => {
    const r = analyzeTemplate({ text: "{{user.first}} {{#items}}{{name}} for {{customer}}{{/items}}" }, { user: { first: "Ann" }, customer: "Ann", items: [{ name: "Tea" }] });
    expect(r).toEqual({ variables: ["user.first", "items", "items[].name", "customer"], missing: [] });
  });
});

describe("merge data by field", () => {
  it("gives plain and dotted names a field and leaves lists and sections to JSON", () => {
    expect(formFields(["customerName", "items", "items[].name", "user", "user.first", "total"])).toEqual({ fields: ["customerName", "user.first", "total"], sections: ["items", "user"] });
    expect(innerNames(["items", "items[].name", "items[].price", "items[].name", "user.first"], "items")).toEqual(["name", "price"]);
  });

  it("sets and removes values by dotted name", () => {
    const d = setPath(setPath({}, "user.first", "Ann"), "total", "3");
    expect(d).toEqual({ user: { first: "Ann" }, total: "3" });
    expect(getPath(d, "user.first")).toBe("Ann");
    expect(setPath(d, "user.first", undefined)).toEqual({ total: "3" });
  });
});
