import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { setTestEnv } from "@/lib/server/test-helpers";
import { withTimerGap } from "@/lib/test/timer-gap";
import { checkPoolStats, resetCheckPool } from "./check-pool";
import { presendChecks } from "./checks";
import { presendRequest } from "@/lib/schemas/presend";

/**
 * The pre-send checks in their worker threads (finding 2 of the second review: 5 MB of html
 * froze the server for minutes). Real workers, loading the checks through tsx as in a
 * development run; the built app loads Next's bundle of the same entry instead.
 */

/** A draft whose client-support check takes a second or more: 4,000 elements, each with a style of its own. */
const heavyHtml = Array.from({ length: 4_000 }, (_, i) => `<p style="color:#${(i % 4096).toString(16).padStart(3, "0")};margin:${i}px">word ${i}</p>`).join("\n");
// Read with the route's schema, as every caller of presendChecks does.
const heavy = presendRequest.parse({ draft: { subject: "Heavy", html: heavyHtml, text: "t" }, spam: false });
const light = presendRequest.parse({ draft: { subject: "Hi", html: "<p>Hello</p>", text: "Hello" }, spam: false });

/** A real spamd when the run has one (.ci/run starts one); read before the tests clear the variables. */
const SPAMD = { SPAMD_HOST: process.env.SPAMD_HOST, SPAMD_PORT: process.env.SPAMD_PORT };

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

/**
 * Waits until the pool's worker has started: a worker loads the checks through tsx, which
 * takes longer than a short PRESEND_TIMEOUT_MS, and the wait counts toward a check's time.
 */
async function warm() {
  for (let i = 0; i < 100; i++) {
    if ((await settle(presendChecks(light))).ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the checks' worker did not start within 10 s");
}

beforeEach(async () => {
  setTestEnv({ SPAMD_HOST: undefined, PRESEND_WORKERS: "1", PRESEND_QUEUE: "8", PRESEND_TIMEOUT_MS: "60000" });
  await resetCheckPool();
});
afterAll(() => resetCheckPool());

describe("pre-send checks in a worker", () => {
  it("leave the request thread free: a 10 ms timer keeps its schedule through a check of seconds", async () => {
    await presendChecks(light); // the worker's start (loading its modules) is not the point here
    const started = performance.now();
    const { value: result, worstGapMs } = await withTimerGap(() => presendChecks(heavy));
    expect(result.findings.length).toBeGreaterThan(0);
    // The check itself took long enough that running it here would have stalled the timer as long.
    expect(performance.now() - started).toBeGreaterThan(500);
    expect(worstGapMs).toBeLessThan(300);
  });

  it("stop a check past PRESEND_TIMEOUT_MS and answer 422 naming the limit; the next check runs", async () => {
    setTestEnv({ SPAMD_HOST: undefined, PRESEND_WORKERS: "1", PRESEND_TIMEOUT_MS: "150" });
    await resetCheckPool();
    await warm();
    const started = Date.now();
    const outcome = await settle(presendChecks(heavy));
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatchObject({ status: 422, code: "checks_timeout", param: "draft.html", message: expect.stringContaining("0.15 s (PRESEND_TIMEOUT_MS)") });
    expect(Date.now() - started).toBeLessThan(3000);
    // Its worker was stopped; once a new one has started, checks run again.
    await warm();
    expect((await presendChecks(light)).sizes.htmlBytes).toBe(12);
  });

  it("answer a check that waited out PRESEND_TIMEOUT_MS for a worker with a 429 saying the server was busy, at the deadline", async () => {
    setTestEnv({ SPAMD_HOST: undefined, PRESEND_WORKERS: "1", PRESEND_TIMEOUT_MS: "150" });
    await resetCheckPool();
    // A fresh pool: the worker takes longer than 150 ms to load the checks, so the check waits out its time.
    const started = Date.now();
    const outcome = await settle(presendChecks(light));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(!outcome.ok && outcome.error).toMatchObject({ status: 429, code: "checks_busy", retryAfterMs: 2000, param: null, message: expect.stringMatching(/server was busy.*0\.15 s \(PRESEND_TIMEOUT_MS\).*try again/i) });
    await warm();
  });

  it("run one check at a time per user: a second one meanwhile is a 429 with a Retry-After", async () => {
    await presendChecks(light);
    const first = presendChecks(heavy, { userId: "u1" });
    const second = await settle(presendChecks(light, { userId: "u1" }));
    const other = await settle(presendChecks(light, { userId: "u2" }));
    expect(second.ok).toBe(false);
    expect(!second.ok && second.error).toMatchObject({ status: 429, code: "check_in_progress", retryAfterMs: 1000 });
    expect(other.ok).toBe(true);
    await first;
    expect((await settle(presendChecks(light, { userId: "u1" }))).ok).toBe(true);
  });

  it("hold at most PRESEND_QUEUE checks waiting; one more is a 429 naming the limit", async () => {
    setTestEnv({ SPAMD_HOST: undefined, PRESEND_WORKERS: "1", PRESEND_QUEUE: "1", PRESEND_TIMEOUT_MS: "60000" });
    await resetCheckPool();
    await presendChecks(light);
    const running = settle(presendChecks(heavy, { userId: "a" }));
    const waiting = settle(presendChecks(light, { userId: "b" }));
    const refused = await settle(presendChecks(light, { userId: "c" }));
    expect(!refused.ok && refused.error).toMatchObject({ status: 429, code: "checks_busy", retryAfterMs: 2000, message: expect.stringContaining("PRESEND_QUEUE") });
    expect(checkPoolStats()).toMatchObject({ workers: 1, running: 1, queued: 1 });
    expect((await running).ok).toBe(true);
    expect((await waiting).ok).toBe(true);
  });

  it.skipIf(!SPAMD.SPAMD_HOST)("score with spamd the MIME message their worker built", async () => {
    setTestEnv({ ...SPAMD, PRESEND_WORKERS: "1" });
    await resetCheckPool();
    const result = await presendChecks(presendRequest.parse({ draft: { subject: "FREE VIAGRA CHEAP NOW", html: "<p>Buy viagra now, cheap cialis, click here!!!</p>" }, spam: true }));
    if (!result.spam || "unavailable" in result.spam) throw new Error(`spamd is configured but unusable: ${JSON.stringify(result.spam)}`);
    expect(result.spam.rules.map((r) => r.name)).toEqual(expect.arrayContaining(["SUBJ_ALL_CAPS", "MIME_HTML_ONLY"]));
  });

  it("refuse html nested deeper than browsers nest, with a 400 naming draft.html", async () => {
    const outcome = await settle(presendChecks(presendRequest.parse({ draft: { subject: "s", html: "<div>".repeat(100_000) }, spam: false })));
    expect(!outcome.ok && outcome.error).toMatchObject({ status: 400, param: "draft.html", message: expect.stringContaining("nested more than 512 deep") });
  });
});
