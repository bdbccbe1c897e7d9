import { expect } from "vitest";

/**
 * Test-only: best of three runs of `fn`, in milliseconds (a shared machine: one slow run says
 * little); a run slower than a second is not repeated, it has failed anyway.
 */
export function bestTimeMs(fn: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < 3 && (run === 0 || best < 1_000); run++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Test-only: fails unless `run` takes about linear time in its input: at `size` ten times
 * `size / 10` it takes under `maxMs`, and at most 30 times as long as at the smaller size
 * (quadratic would be 100 times; 20 ms of slack for timer noise at small figures).
 */
export function expectLinearTime(run: (repeats: number) => unknown, size: number, maxMs: number): void {
  const small = bestTimeMs(() => run(size / 10));
  const large = bestTimeMs(() => run(size));
  expect(large).toBeLessThan(maxMs);
  expect(large).toBeLessThan(small * 30 + 20);
}
