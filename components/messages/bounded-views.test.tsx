import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BoundedText } from "./bounded-text";
import { EmailFrame } from "./email-frame";
import { HeadersList } from "./headers-list";
import { MAX_PREVIEW_HTML_CHARS, SHOWN_HEADER_CHARS, SHOWN_HEADERS, SHOWN_TEXT_CHARS } from "./bounds";

/** What a stranger's mail may hold, drawn within the bounds the message screen lays out (issue 25). */
describe("the message screen's bounded views", () => {
  it("lays out at most SHOWN_TEXT_CHARS of a text, and says how much there is", () => {
    const html = renderToStaticMarkup(<BoundedText text={"y".repeat(1_000_000)} filename="m.txt" label="Text version" />);
    expect(html).toContain("Showing the first 100,000 of 1,000,000 characters.");
    expect(html).toContain("Download all");
    expect(html.length).toBeLessThan(SHOWN_TEXT_CHARS + 2_000);
    expect(renderToStaticMarkup(<BoundedText text="short" filename="m.txt" label="Text version" />)).not.toContain("Showing");
  });

  it("lays out at most SHOWN_HEADERS headers of SHOWN_HEADER_CHARS each", () => {
    const headers = Array.from({ length: 5_000 }, (_, i) => [`X-H${i}`, "v".repeat(10_000)] as [string, string]);
    const html = renderToStaticMarkup(<HeadersList headers={headers} filename="h.txt" />);
    expect(html).toContain("Showing 200 of 5,000 headers, long ones cut at 2,000 characters.");
    expect(html).toContain("(8,000 more characters)");
    expect(html).not.toContain("X-H200<");
    expect(html.length).toBeLessThan(SHOWN_HEADERS * (SHOWN_HEADER_CHARS + 300) + 2_000);
  });

  it("renders no frame for html over MAX_PREVIEW_HTML_CHARS, only a notice that offers its source", () => {
    const html = renderToStaticMarkup(<EmailFrame html={"x".repeat(MAX_PREVIEW_HTML_CHARS + 1)} title="Email body: big" />);
    expect(html).not.toContain("<iframe");
    expect(html).toContain("more than the 2,000,000 a preview shows");
    expect(html).toContain("Download the HTML source");
    // Within the bound the server draws a placeholder; the frame comes in the browser.
    expect(renderToStaticMarkup(<EmailFrame html="<p>hi</p>" title="Email body: small" />)).toContain('data-testid="email-frame-loading"');
  });
});
