import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fromRoot } from "./paths";

/**
 * Seconds each Vitest file took, by pass ("pglite", or "postgres" when TEST_DATABASE_URL is
 * set) and file: what orders the next run (./vitest-order.ts). The last run's in this checkout
 * (test-results/) over the ones committed beside this file (a fresh clone, CI).
 */
export const VITEST_DURATIONS_COMMITTED = fromRoot("scripts", "lib", "vitest-durations.json");
export const VITEST_DURATIONS_LAST_RUN = fromRoot("test-results", "vitest-durations.json");

type Durations = Record<string, Record<string, number>>;

function read(file: string): Durations {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Durations;
  } catch {
    return {};
  }
}

export const passOf = (env: Record<string, string | undefined>) => (env.TEST_DATABASE_URL ? "postgres" : "pglite");

export function vitestDurations(pass: string): Record<string, number> {
  return { ...read(VITEST_DURATIONS_COMMITTED)[pass], ...read(VITEST_DURATIONS_LAST_RUN)[pass] };
}

/** Keeps this run's times of `pass` (merged: a run of some files leaves the others' times). */
export function saveVitestDurations(pass: string, files: { file: string; seconds: number }[]): void {
  const all = read(VITEST_DURATIONS_LAST_RUN);
  all[pass] = { ...all[pass], ...Object.fromEntries(files.map((f) => [f.file, Math.round(f.seconds * 10) / 10])) };
  mkdirSync(fromRoot("test-results"), { recursive: true });
  writeFileSync(VITEST_DURATIONS_LAST_RUN, `${JSON.stringify(all, null, 2)}\n`);
}
