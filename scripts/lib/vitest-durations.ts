import { keptTimes } from "./kept-times";

/**
 * Seconds each Vitest file took, by pass ("pglite", or "postgres" when TEST_DATABASE_URL is
 * set) and file: what orders the next run (./vitest-order.ts), kept as ./kept-times.ts keeps
 * the harness's times.
 */
const VITEST_TIMES = keptTimes<Record<string, Record<string, number>>>("vitest-durations.json");

export const passOf = (env: Record<string, string | undefined>) => (env.TEST_DATABASE_URL ? "postgres" : "pglite");

export function vitestDurations(pass: string): Record<string, number> {
  return VITEST_TIMES.read((table) => table[pass]) as Record<string, number>;
}

/** Keeps this run's times of `pass` (merged: a run of some files leaves the others' times). */
export function saveVitestDurations(pass: string, files: { file: string; seconds: number }[]): void {
  const all = VITEST_TIMES.lastRun() as Record<string, Record<string, number>>;
  all[pass] = { ...all[pass], ...Object.fromEntries(files.map((f) => [f.file, Math.round(f.seconds * 10) / 10])) };
  VITEST_TIMES.saveLastRun(all);
}
