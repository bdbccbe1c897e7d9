import "server-only";
import { STREAM_MODE_CODES, type StreamModeCode } from "@/lib/schemas/event-stream";
import { series } from "./registry";

/** The background work's series, set where the work happens (the reconciler, the batch runner, retention). */

/**
 * Every project's stream mode as a reconciler pass just decided it: 1 for its code, 0 for the
 * others (a graph then shows the switch). Set all at once, so a scrape never sees half a pass
 * and a removed project's series go; `null` (another instance held the pass) clears them, so
 * only the instance that ran the latest pass reports modes.
 */
export function recordStreamModes(modes: readonly { project: string; code: StreamModeCode }[] | null): void {
  const gauge = series().streamMode;
  gauge.reset();
  for (const { project, code } of modes ?? []) for (const mode of STREAM_MODE_CODES) gauge.set({ project, mode }, mode === code ? 1 : 0);
}

/** The rows of a batch chunk as settled (committed), by the job's kind (send, contacts, suppressions). */
export function recordBatchRows(kind: string, outcomes: readonly { status: string }[]): void {
  const counter = series().batchRows;
  const by = new Map<string, number>();
  for (const o of outcomes) by.set(o.status, (by.get(o.status) ?? 0) + 1);
  for (const [outcome, n] of by) counter.inc({ kind, outcome }, n);
}

/** One retention pass this instance ran, with the rows it removed by kind. */
export function recordPrunePass(removed: Record<string, number>): void {
  const s = series();
  s.prunePasses.inc();
  for (const [kind, n] of Object.entries(removed)) if (n > 0) s.pruned.inc({ kind }, n);
}
