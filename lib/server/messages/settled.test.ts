import { describe, expect, it } from "vitest";
import { SETTLE_QUIET_MS } from "@/lib/messages/vocabulary";
import { detailRefreshMs, DETAIL_REFRESH_MAX_MS, DETAIL_REFRESH_MS } from "@/lib/queries/messages";
import { settledState } from "./settled";

const now = Date.parse("2026-11-24T12:00:00Z");
const ago = (ms: number) => new Date(now - ms).toISOString();

describe("settledState", () => {
  it("settles a known final status at once, and says when it last changed", () => {
    expect(settledState({ status: "bounced", createdAt: ago(5_000), events: [{ createdAt: ago(1_000) }] }, now)).toEqual({ settled: true, lastChangedAt: ago(1_000) });
  });

  it("settles an unfamiliar word, or a status still waiting, only after a quiet period", () => {
    expect(settledState({ status: "Archived", createdAt: ago(5_000), events: [{ createdAt: ago(1_000) }] }, now).settled).toBe(false);
    expect(settledState({ status: "Archived", createdAt: ago(SETTLE_QUIET_MS * 3), events: [{ createdAt: ago(SETTLE_QUIET_MS) }] }, now).settled).toBe(true);
    expect(settledState({ status: "sent", createdAt: ago(SETTLE_QUIET_MS * 2), events: [] }, now).settled).toBe(true);
  });

  it("takes the newest time it has, and never settles by time without one", () => {
    expect(settledState({ status: "Archived", createdAt: "", events: [{}, { createdAt: "not a time" }] }, now)).toEqual({ settled: false, lastChangedAt: null });
    expect(settledState({ status: "Archived", createdAt: "", events: [{ createdAt: ago(SETTLE_QUIET_MS + 1) }, {}] }, now).settled).toBe(true);
  });
});

describe("detailRefreshMs", () => {
  it("does not poll a settled message", () => {
    expect(detailRefreshMs({ settled: true, lastChangedAt: ago(0) }, now)).toBe(false);
    expect(detailRefreshMs(undefined, now)).toBe(false);
  });

  it("polls quickly right after a change and backs off gently while it stays quiet", () => {
    expect(detailRefreshMs({ settled: false, lastChangedAt: ago(1_000) }, now)).toBe(DETAIL_REFRESH_MS);
    expect(detailRefreshMs({ settled: false, lastChangedAt: ago(50_000) }, now)).toBe(5_000);
    expect(detailRefreshMs({ settled: false, lastChangedAt: ago(10 * 60_000) }, now)).toBe(DETAIL_REFRESH_MAX_MS);
    expect(detailRefreshMs({ settled: false, lastChangedAt: null }, now)).toBe(DETAIL_REFRESH_MAX_MS);
  });
});
