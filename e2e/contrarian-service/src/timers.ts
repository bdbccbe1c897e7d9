/** setTimeout with bookkeeping, so stopping the contrarian leaves nothing running. */
export class Timers {
  private pending = new Set<NodeJS.Timeout>();
  private stopped = false;

  after(ms: number, fn: () => void | Promise<void>): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (this.stopped) return;
      void Promise.resolve()
        .then(fn)
        .catch((e) => console.error(`contrarian: timer failed: ${e instanceof Error ? e.stack : String(e)}`));
    }, ms);
    this.pending.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
