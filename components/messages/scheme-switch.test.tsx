import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SchemeSwitch } from "./scheme-switch";

const render = (value: "light" | "dark" | "inverted" | "partial", darkStyles: boolean | null) =>
  renderToStaticMarkup(<SchemeSwitch value={value} onChange={() => {}} darkStyles={darkStyles} />);

describe("the preview's scheme switch", () => {
  it("is one radio group of four labelled choices, the current one checked", () => {
    const html = render("dark", null);
    expect(html.match(/type="radio"/g)).toHaveLength(4);
    expect(html).toMatch(/<legend[^>]*>Preview as a mail client in<\/legend>/);
    expect(html).toMatch(/checked="" value="dark"/);
    expect(html.match(/checked=""/g)).toHaveLength(1);
    // A space of its own before the hint: the radio's accessible name must not run the words together.
    expect(html).toContain("Dark, inverted <span class=\"text-xs\">(approximation, like Gmail apps)</span>");
    expect(html).toContain("Dark, partial <span class=\"text-xs\">(approximation, like Outlook.com)</span>");
    expect(new Set(html.match(/name="[^"]+"/g)).size).toBe(1);
  });

  it("says an approximation is one, and that it is not applied to an email with dark styles of its own", () => {
    expect(render("inverted", false)).toContain("An approximation: without dark styles, Gmail&#x27;s apps invert");
    expect(render("partial", false)).toContain("Outlook.com darkens light backgrounds");
    expect(render("partial", true)).toContain("This email has dark styles of its own, so it is shown with them");
    expect(render("dark", true)).not.toContain("scheme-note");
    expect(render("inverted", null)).not.toContain("scheme-note");
  });
});
