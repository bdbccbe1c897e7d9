import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CollapsibleSection } from "./collapsible-section";

const render = (open: boolean) =>
  renderToStaticMarkup(
    <CollapsibleSection id="dmarc" title="DMARC reports" open={open} onToggle={() => {}} showLabel="Show reports" hideLabel="Hide reports" description="What it holds.">
      <p>the panel</p>
    </CollapsibleSection>,
  );

describe("CollapsibleSection", () => {
  it("is a region named by its title, whose button says it is closed, names its panel and leaves the panel empty", () => {
    const html = render(false);
    expect(html).toMatch(/<section aria-labelledby="dmarc-title"[^>]*>/);
    expect(html).toContain('<h2 id="dmarc-title"');
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*aria-controls="dmarc-panel"[^>]*>Show reports<\/button>/);
    expect(html).toContain("What it holds.");
    expect(html).toContain('<div id="dmarc-panel"></div>');
  });

  it("open: the button says so with its other word, and the panel holds its contents", () => {
    const html = render(true);
    expect(html).toMatch(/<button[^>]*aria-expanded="true"[^>]*aria-controls="dmarc-panel"[^>]*>Hide reports<\/button>/);
    expect(html).toContain('<div id="dmarc-panel"><p>the panel</p></div>');
  });
});
