import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux build that matters). */
const TICKS_PER_S = 100;

/**
 * CPU time (user + system, ms) used so far by the processes of one process group — a server
 * started with startChild (scripts/lib/child.ts) leads its own group, Next's workers included.
 * Read from /proc (Linux); null elsewhere. Processes that already ended are not counted.
 */
export function groupCpuMs(pgid: number | undefined): number | null {
  if (pgid === undefined) return null;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    // The command name may hold spaces and parentheses: the fields after its last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // state ppid pgrp … utime (14th field of the line) stime (15th): here at 2, 11, 12.
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_S;
}
