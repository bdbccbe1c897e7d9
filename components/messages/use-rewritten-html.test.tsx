import * as React from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import SandboxedFrame from "./sandboxed-frame";
import { PreparedEmailHtmlProvider } from "./use-rewritten-html";

/**
 * The template screen's first preview comes rewritten by the page (templates/[id]/page.tsx):
 * its frames draw that, without the rewriter; any other html, or remote images allowed, waits
 * for the rewriter (the frame's placeholder shows meanwhile).
 */
const SOURCE = '<p>Hi <img src="https://tracker.example/p.gif"></p>';
// Not what the rewriter would make of SOURCE: seeing it in the frame shows the server's was used.
const prepared = { source: SOURCE, rewritten: { html: "<p>rewritten by the server</p>", remote: 1, darkStyles: false, colorScheme: false } };

function render(html: string, allowRemoteImages = false): string {
  return renderToString(
    <PreparedEmailHtmlProvider value={prepared}>
      <React.Suspense fallback={<span>waiting for the rewriter</span>}>
        <SandboxedFrame html={html} title="Preview" allowRemoteImages={allowRemoteImages} />
      </React.Suspense>
    </PreparedEmailHtmlProvider>,
  );
}

describe("useRewrittenHtml", () => {
  it("draws the page's rewriting of the same html, remote images blocked, at once", () => {
    const out = render(SOURCE);
    expect(out).toContain("<iframe");
    expect(out).toContain("rewritten by the server");
    expect(out).toContain('data-remote-images="blocked"');
  });

  it("waits for the rewriter for any other html, and for remote images allowed", () => {
    for (const out of [render("<p>Another preview</p>"), render(SOURCE, true)]) {
      expect(out).not.toContain("<iframe");
      expect(out).toContain("waiting for the rewriter");
    }
  });
});
