import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { withDbLock } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { recordPrunePass } from "@/lib/server/metrics/work";
import { pruneOnce, type PruneResult } from "./prune";

/**
 * The pruner in each dashboard process, started by startDashboard (never at import). Every
 * RETENTION_EVERY_MIN a pass starts, under a lock of the database taken without waiting: with
 * several instances on one Postgres, one prunes and the others skip that round. The first pass
 * comes a minute after start, not during it. `stopRetention` ends a pass between two batches.
 */
const FIRST_PASS_MS = 60_000;
export const RETENTION_LOCK = "mail-dashboard:retention";

type Pruner = { timer: ReturnType<typeof setTimeout> | null; abort: AbortController; pass: Promise<unknown> | null };
const KEY = Symbol.for("mail-dashboard.retention");
const holder = () => globalThis as { [KEY]?: Pruner };

/** One pass now, if no other instance is pruning: null when another one was. */
export async function runRetentionPass(signal?: AbortSignal, now = new Date()): Promise<PruneResult | null> {
  const e = env();
  if (e.INDEX_RETENTION_DAYS === 0) return null;
  const cutoff = new Date(now.getTime() - e.INDEX_RETENTION_DAYS * 86_400_000);
  const locked = await withDbLock(RETENTION_LOCK, () => pruneOnce({ cutoff, batchSize: e.RETENTION_BATCH_SIZE, pauseMs: e.RETENTION_PAUSE_MS, signal }), { wait: false });
  if (!locked.acquired) return null;
  const r = locked.value;
  recordPrunePass({ messages: r.messages, batch_jobs: r.batchJobs, batch_rows: r.batchRows, rereads: r.rereads, link_clickers: r.linkClickers, tombstones: r.tombstones, dmarc_reports: r.dmarcReports, dmarc_records: r.dmarcRecords, dmarc_jobs: r.dmarcJobs });
  if (r.messages || r.batchJobs || r.rereads || r.dmarcReports) {
    console.info(`retention: removed ${r.messages} messages, ${r.batchJobs} batch jobs (${r.batchRows} rows), ${r.rereads} queued re-reads and ${r.dmarcReports} DMARC reports (${r.dmarcRecords} records) older than ${e.INDEX_RETENTION_DAYS} days`);
  }
  return r;
}

export function startRetention(opts: { firstPassMs?: number; everyMs?: number } = {}): void {
  if (holder()[KEY] || env().INDEX_RETENTION_DAYS === 0) return;
  const pruner: Pruner = { timer: null, abort: new AbortController(), pass: null };
  const everyMs = opts.everyMs ?? env().RETENTION_EVERY_MIN * 60_000;
  const schedule = (ms: number) => {
    pruner.timer = setTimeout(() => {
      pruner.pass = runRetentionPass(pruner.abort.signal)
        .catch((e) => console.warn(`retention: ${safeErrorSummary(e)}`))
        .finally(() => {
          pruner.pass = null;
          if (!pruner.abort.signal.aborted) schedule(everyMs);
        });
    }, ms);
    pruner.timer.unref?.();
  };
  schedule(opts.firstPassMs ?? FIRST_PASS_MS);
  holder()[KEY] = pruner;
}

/** Stops the pruner: no new pass, and the one under way ends after its current batch. */
export async function stopRetention(): Promise<void> {
  const pruner = holder()[KEY];
  delete holder()[KEY];
  if (!pruner) return;
  pruner.abort.abort();
  if (pruner.timer) clearTimeout(pruner.timer);
  await pruner.pass;
}
