import "server-only";
import { evaluateAlerts } from "./evaluate";
import { nextAlertDue, sendDueAlerts } from "./outbox";
import { jobsRunningHere } from "@/lib/server/batches/runner";
import { db, dueGate, type Db } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { exportsRunningHere } from "@/lib/server/export/stream";
import { dirtyMarksDue, markAllOnce } from "@/lib/server/insight/dirty";
import { lookupDueDomains, nextDomainLookupDue } from "@/lib/server/insight/domains";
import { refreshInsight } from "@/lib/server/insight/refresh";

/**
 * Insight's background work in one dashboard process, started by startDashboard beside the
 * event stream's (never at import): the rollup refresher, the MX lookups of new recipient
 * domains, the alert check every ALERT_CHECK_INTERVAL_S, and the alert outbox. Each task runs
 * one pass at a time; `stopInsightWork` ends them and waits for passes under way. The refresher,
 * the lookups and the outbox ask their due gate first (lib/server/db dueGate): on PGlite an idle
 * dashboard's ticks ask the database nothing until a write comes or their work falls due.
 */
const REFRESH_EVERY_MS = 1_000;
const DOMAINS_EVERY_MS = 2_000;
const OUTBOX_EVERY_MS = 2_000;
/**
 * While this process sends a batch job, the refresher makes at most one pass in this long:
 * the job's database work comes first (on PGlite it shares one thread with the rollups, and a
 * 100,000-row job's refresh is a quarter of its time), the figures lag by at most this much
 * (a screen's own bounded catch-up still runs), and they catch up at the usual pace once the
 * job ends.
 */
const REFRESH_WHILE_SENDING_MS = 15_000;

/** Batches of marks one refresher pass folds in (500 each). */
export const REFRESH_PASS_BATCHES = 20;

/**
 * How many batches the refresher's next pass folds in: REFRESH_PASS_BATCHES, or one while an
 * export runs in this process. A pass of twenty batches over a backlog (a first start on an
 * index of a million messages, a bulk hand-over) holds the database for seconds, and an
 * export's next page waits behind it; with one batch (about half a second at most, and at most
 * one pass per REFRESH_WHILE_SENDING_MS, see refreshDue) the export keeps its pace, and the
 * figures catch up when it ends (at most EXPORT_MAX_MS; a screen's own catch-up still runs).
 */
export function passBatches(exporting: boolean): number {
  return exporting ? 1 : REFRESH_PASS_BATCHES;
}

/** Whether the refresher makes a pass now: every tick, or while a job sends or an export runs, once per `whileSendingMs`. */
export function refreshDue(now: number, lastPassAt: number, sending: boolean, whileSendingMs = REFRESH_WHILE_SENDING_MS): boolean {
  return !sending || now - lastPassAt >= whileSendingMs;
}

type Work = { timers: ReturnType<typeof setInterval>[]; passes: Set<Promise<unknown>> };
const KEY = Symbol.for("mail-dashboard.insight-work");
const holder = () => globalThis as { [KEY]?: Work };

export type InsightWorkOptions = { refreshEveryMs?: number; domainsEveryMs?: number; alertsEveryMs?: number; outboxEveryMs?: number };

export function startInsightWork(opts: InsightWorkOptions = {}): void {
  if (holder()[KEY]) return;
  const passes = new Set<Promise<unknown>>();
  const busy = new Set<string>();
  const every = (label: string, intervalMs: number, run: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      if (busy.has(label)) return;
      busy.add(label);
      const p = run()
        .catch((e) => console.warn(`${label}: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          busy.delete(label);
          passes.delete(p);
        });
      passes.add(p);
    }, intervalMs);
    timer.unref?.();
    return timer;
  };
  /** `run`, once `probe` (the task's claim condition, read-only) says its work is due. */
  const gated = (probe: (d: Db) => Promise<number | null>, run: () => Promise<unknown>) => {
    const gate = dueGate(probe);
    return async () => {
      if (await gate.due()) await run();
    };
  };
  const refreshGate = dueGate(dirtyMarksDue);
  let backfilled = false;
  let lastPassAt = 0;
  const timers = [
    every("insight refresher", opts.refreshEveryMs ?? REFRESH_EVERY_MS, async () => {
      const exporting = exportsRunningHere();
      if (!refreshDue(Date.now(), lastPassAt, jobsRunningHere() || exporting)) return;
      if (!backfilled) {
        await markAllOnce(await db());
        backfilled = true;
      } else if (!(await refreshGate.due())) return;
      lastPassAt = Date.now();
      // A full pass ends early when an export starts meanwhile, so the export's first pages do not wait for it.
      await refreshInsight({ maxBatches: passBatches(exporting), stopWhen: exportsRunningHere });
    }),
    every("mailbox provider lookups", opts.domainsEveryMs ?? DOMAINS_EVERY_MS, gated(nextDomainLookupDue, () => lookupDueDomains())),
    every("alert check", opts.alertsEveryMs ?? env().ALERT_CHECK_INTERVAL_S * 1000, () => evaluateAlerts()),
    every("alert notifications", opts.outboxEveryMs ?? OUTBOX_EVERY_MS, gated(nextAlertDue, () => sendDueAlerts())),
  ];
  holder()[KEY] = { timers, passes };
}

export async function stopInsightWork(): Promise<void> {
  const work = holder()[KEY];
  delete holder()[KEY];
  if (!work) return;
  for (const t of work.timers) clearInterval(t);
  await Promise.allSettled([...work.passes]);
}
