import { describe, expect, it } from "vitest";
import { MAX_TIME_SCALE, REFERENCE_PROBE_MS, measureTimeScale, probeMs, scaleFor } from "./time-scale";

describe("the browser tests' time scale", () => {
  it("is 1 at the reference pace or faster, grows with a slower probe, and stops at the maximum", () => {
    expect(scaleFor(REFERENCE_PROBE_MS / 2)).toBe(1);
    expect(scaleFor(REFERENCE_PROBE_MS)).toBe(1);
    expect(scaleFor(REFERENCE_PROBE_MS * 2.5)).toBe(2.5);
    expect(scaleFor(REFERENCE_PROBE_MS * 10)).toBe(MAX_TIME_SCALE);
  });

  it("takes a given E2E_TIME_SCALE and refuses one out of range, naming the variable", () => {
    expect(measureTimeScale({ E2E_TIME_SCALE: "2" })).toEqual({ scale: 2 });
    expect(() => measureTimeScale({ E2E_TIME_SCALE: "0.5" })).toThrow(/E2E_TIME_SCALE must be a number from 1 to 3/);
    expect(() => measureTimeScale({ E2E_TIME_SCALE: "fast" })).toThrow(/E2E_TIME_SCALE/);
  });

  it("measures when none is given and keeps the figure for the lanes started after", () => {
    const env: Record<string, string | undefined> = {};
    const { scale, probe } = measureTimeScale(env);
    expect(probe).toBeGreaterThan(0);
    expect(scale).toBe(scaleFor(probe!));
    expect(env.E2E_TIME_SCALE).toBe(String(scale));
    expect(probeMs(1)).toBeGreaterThan(0);
  });
});
