import { afterEach, describe, expect, it } from "vitest";
import { rewriteEmailHtml } from "@/lib/messages/email-html";
import { REWRITE_MAX_CHARS, resetRewritePool, rewriteForFirstRender, rewritePoolStats } from "./html-rewrite-pool";

/**
 * The message screen's first render of an email's html is rewritten by the page in a worker
 * thread (a real one: the worker loads its source through tsx here), within a size bound and a
 * time bound; anything it cannot do is left to the browser's rewriter (null).
 */
const HTML = '<p>Hi <a href="https://acme.test/x">there</a><img src="https://tracker.example/p.gif"></p>';

afterEach(() => resetRewritePool());

describe("rewriteForFirstRender", () => {
  it("rewrites in a worker thread exactly as the browser's rewriter would, remote images blocked", async () => {
    // The pool's own bounds but a long time bound: under a loaded run (CI, Vitest's other files on
    // both cores) a worker that loads its source through tsx took longer than REWRITE_TIMEOUT_MS to
    // start, and the rewrite was left to the browser (null). The time bound has its own test below.
    await resetRewritePool({ timeoutMs: 60_000 });
    const out = await rewriteForFirstRender(HTML);
    expect(out).toEqual(rewriteEmailHtml(HTML, { blockImages: true }));
    expect(out!.remote).toBe(1);
    expect(out!.html).toContain("data-remote-src=");
    expect(rewritePoolStats().workers).toBe(1);
  }, 60_000);

  it("leaves html past its size bound to the browser, without starting any work", async () => {
    await resetRewritePool({ maxChars: 100 });
    expect(await rewriteForFirstRender(`<p>${"x".repeat(200)}</p>`)).toBeNull();
    expect(rewritePoolStats()).toEqual({ workers: 0, running: 0, queued: 0 });
    expect(REWRITE_MAX_CHARS).toBeLessThanOrEqual(2_000_000); // never more than a frame renders at all
  });

  it("gives up at its time bound (the wait for a worker included) and leaves the html to the browser", async () => {
    // 1 ms: less than a worker takes to start, so the bound is what ends it.
    await resetRewritePool({ timeoutMs: 1 });
    const started = Date.now();
    expect(await rewriteForFirstRender(HTML)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
