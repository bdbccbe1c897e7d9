import { readFileSync } from "node:fs";

/** Busy and total CPU time of the whole machine so far, from /proc/stat (Linux). */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/**
 * Waits until the machine has been quiet for `windowMs` (busy below `maxBusy` of all cores),
 * so a timed run does not pay for background work an earlier run left behind (the local
 * service stepping thousands of messages through their lifecycle and delivering their events).
 * Returns how long it waited; gives up after `timeoutMs` and says so.
 */
export async function waitForIdle(opts: { maxBusy?: number; windowMs?: number; timeoutMs?: number } = {}): Promise<number> {
  const { maxBusy = 0.15, windowMs = 1500, timeoutMs = 240_000 } = opts;
  const started = Date.now();
  for (;;) {
    const a = cpuTimes();
    await new Promise((r) => setTimeout(r, windowMs));
    const b = cpuTimes();
    const busy = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (busy <= maxBusy) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      console.warn(`  (the machine stayed busy, ${(busy * 100).toFixed(0)}% of its CPU, for ${timeoutMs / 1000} s; measuring anyway)`);
      return Date.now() - started;
    }
  }
}
