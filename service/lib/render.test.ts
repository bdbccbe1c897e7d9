import { describe, expect, it } from "vitest";
import { TemplateSyntaxError, renderTemplate } from "./render";

const parts = (p: Partial<{ subject: string | null; html: string | null; text: string | null }>) => ({
  subject: null, html: null, text: null, ...p,
});

describe("renderTemplate", () => {
  it("escapes {{var}} in html, leaves {{{var}}} raw, and escapes nothing in subject and text", () => {
    const data = { name: "<Ann & Bob>", link: "<a href=\"/x\">x</a>" };
    const r = renderTemplate(
      parts({ subject: "Hi {{name}}", html: "<p>{{name}}</p>{{{link}}}", text: "Hi {{name}} {{{link}}}" }),
      data,
    );
    expect(r.html).toBe("<p>&lt;Ann &amp; Bob&gt;</p><a href=\"/x\">x</a>");
    expect(r.subject).toBe("Hi <Ann & Bob>");
    expect(r.text).toBe("Hi <Ann & Bob> <a href=\"/x\">x</a>");
    expect(r.variables).toEqual(["name", "link"]);
    expect(r.missing).toEqual([]);
  });

  it("keeps absent parts null", () => {
    const r = renderTemplate(parts({ text: "plain" }), {});
    expect(r).toMatchObject({ subject: null, html: null, text: "plain", variables: [], missing: [] });
  });

  it("repeats list sections and names their fields relative to the list", () => {
    const r = renderTemplate(
      parts({ html: "<ul>{{#items}}<li>{{name}} × {{qty}} for {{customer}}</li>{{/items}}</ul>" }),
      { customer: "Ann", items: [{ name: "Tea", qty: 2 }, { name: "Cup", qty: 1 }] },
    );
    expect(r.html).toBe("<ul><li>Tea × 2 for Ann</li><li>Cup × 1 for Ann</li></ul>");
    // `customer` is found in the outer context, so it keeps its outer name
    expect(r.variables).toEqual(["items", "items[].name", "items[].qty", "customer"]);
    expect(r.missing).toEqual([]);
  });

  it("reports a field missing from any list item", () => {
    const r = renderTemplate(parts({ text: "{{#items}}{{name}}: {{price}}\n{{/items}}" }), {
      items: [{ name: "Tea", price: "3.00" }, { name: "Cup" }],
    });
    expect(r.text).toBe("Tea: 3.00\nCup: \n");
    expect(r.missing).toEqual(["items[].price"]);
  });

  it("does not count an empty or absent section as missing, nor the names inside it", () => {
    const tpl = parts({ text: "{{#items}}{{name}}{{/items}}{{^items}}No items{{/items}}" });
    for (const data of [{}, { items: [] }]) {
      const r = renderTemplate(tpl, data);
      expect(r.text).toBe("No items");
      expect(r.variables).toEqual(["items", "items[].name"]);
      expect(r.missing).toEqual([]);
    }
  });

  it("checks the names inside an inverted section only when it renders", () => {
    const tpl = parts({ text: "{{^vip}}Hello {{name}}{{/vip}}" });
    expect(renderTemplate(tpl, {}).missing).toEqual(["name"]);
    expect(renderTemplate(tpl, { vip: true }).missing).toEqual([]);
  });

  it("resolves dotted names and object sections", () => {
    const r = renderTemplate(
      parts({ subject: "{{user.first}} / {{#user}}{{last}}{{/user}} / {{user.middle}}" }),
      { user: { first: "Ann", last: "Lee" } },
    );
    expect(r.subject).toBe("Ann / Lee / ");
    expect(r.variables).toEqual(["user.first", "user", "user.last", "user.middle"]);
    expect(r.missing).toEqual(["user.middle"]);
  });

  it("treats null as missing but false, 0 and the empty string as values", () => {
    const r = renderTemplate(parts({ text: "{{a}}|{{b}}|{{c}}|{{d}}|{{e}}" }), { a: null, b: false, c: 0, d: "" });
    expect(r.text).toBe("|false|0||");
    expect(r.missing).toEqual(["a", "e"]);
  });

  it("lists each name once across parts, in order of first use", () => {
    const r = renderTemplate(parts({ subject: "{{b}} {{a}}", html: "{{a}} {{c}}", text: "{{c}} {{b}}" }), {});
    expect(r.variables).toEqual(["b", "a", "c"]);
    expect(r.missing).toEqual(["b", "a", "c"]);
  });

  it("uses names inside a truthy flag section from the outer context", () => {
    const r = renderTemplate(parts({ text: "{{#vip}}Dear {{name}}{{/vip}}" }), { vip: true });
    expect(r.text).toBe("Dear ");
    expect(r.missing).toEqual(["name"]);
  });

  it("throws a TemplateSyntaxError naming the part that does not parse", () => {
    let error: unknown;
    try {
      renderTemplate(parts({ subject: "ok", html: "{{#items}}never closed" }), {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateSyntaxError);
    expect((error as TemplateSyntaxError).part).toBe("html");
    expect((error as Error).message).toMatch(/^html: Unclosed section/);
  });
});
