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
