import "server-only";
import { series } from "./registry";

/** The background work's series, set where the work happens (the batch runner, retention); the stream modes are read from the database (./database-gauges.ts). */

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
