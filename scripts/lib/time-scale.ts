import { pbkdf2Sync } from "node:crypto";

/**
 * How much slower this machine computes than the one the browser tests' time budgets were set
 * on. CI's 2-core machine is not always as fast: on one run its type check took 68 s where it
 * usually takes 21–25 s, and two tests ran out of their 60 s with nothing wrong but the pace.
 * A budget is a guard against a test that hangs, not a speed check (the run's slowest-tests
 * list is that), so the budgets grow with the machine's pace, measured once before the lanes
 * start, when nothing else of the run computes. Tests that assert a latency keep their bounds.
 */

/** One probe on the machine the budgets were set on, idle: 59–63 ms (pbkdf2, 300,000 rounds). */
export const REFERENCE_PROBE_MS = 60;
/** Budgets never shrink below what they were set at, and never grow past this. */
export const MAX_TIME_SCALE = 3;

/** The median of five probes, in milliseconds. */
export function probeMs(runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    pbkdf2Sync("probe", "salt", 300_000, 32, "sha256");
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** The factor for a probe's time: 1 at the reference pace or faster, at most MAX_TIME_SCALE. */
export function scaleFor(probe: number): number {
  return Math.round(Math.min(MAX_TIME_SCALE, Math.max(1, probe / REFERENCE_PROBE_MS)) * 100) / 100;
}

/**
 * The run's scale: E2E_TIME_SCALE when set (a number from 1 to MAX_TIME_SCALE), measured
 * otherwise. Saved in E2E_TIME_SCALE so that every lane started after uses the same one.
 */
export function measureTimeScale(env: Record<string, string | undefined> = process.env): { scale: number; probe?: number } {
  const given = env.E2E_TIME_SCALE;
  if (given !== undefined) {
    const scale = Number(given);
    if (!(scale >= 1 && scale <= MAX_TIME_SCALE)) throw new Error(`E2E_TIME_SCALE must be a number from 1 to ${MAX_TIME_SCALE}, not "${given}"`);
    return { scale };
  }
  const probe = probeMs();
  const scale = scaleFor(probe);
  env.E2E_TIME_SCALE = String(scale);
  return { scale, probe };
}
