import { readdirSync, readFileSync } from "node:fs";

/**
 * Resident memory of a process group (a server started with startChild leads its own group,
 * and Next may run workers in it), summed from /proc (Linux). 0 when the group is gone.
 */
export function groupRssBytes(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces or parentheses: fields are counted after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** Samples a group's RSS every `everyMs` until stopped; `peak()` is the largest sample so far, `mark()` starts a new window. */
export function sampleRss(pgid: number, everyMs = 200) {
  let peak = 0;
  let windowPeak = 0;
  const take = () => {
    const now = groupRssBytes(pgid);
    peak = Math.max(peak, now);
    windowPeak = Math.max(windowPeak, now);
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    peak: () => peak,
    /** Starts a window: `windowPeak()` is the largest sample since. Answers the resident memory now. */
    mark: () => {
      windowPeak = groupRssBytes(pgid);
      return windowPeak;
    },
    windowPeak: () => windowPeak,
    stop: () => clearInterval(timer),
  };
}
