/**
 * Runs `work` while a timer ticks every `everyMs`, and reports the longest wait between two
 * ticks (the last one up to the end of the work included): how long this thread's event
 * loop was blocked meanwhile. Work done on another thread leaves it near `everyMs`.
 */
export async function withTimerGap<T>(work: () => Promise<T>, everyMs = 10): Promise<{ value: T; worstGapMs: number }> {
  let last = performance.now();
  let worstGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worstGapMs = Math.max(worstGapMs, now - last);
    last = now;
  }, everyMs);
  try {
    const value = await work();
    // A blocked thread runs no tick until the work is over: the time since the last one counts too.
    worstGapMs = Math.max(worstGapMs, performance.now() - last);
    return { value, worstGapMs };
  } finally {
    clearInterval(ticker);
  }
}
