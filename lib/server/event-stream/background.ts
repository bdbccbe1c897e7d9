import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { flushStreamHealth } from "@/lib/server/event-stream/health";
import { flushDeliveryLog } from "./delivery-log";
import { reconcileOnce } from "./reconciler";
import { startRereadWorker, stopRereadWorker } from "../message-index/reread-worker";

/**
 * The event stream's background work in one dashboard process, started by startDashboard
 * (instrumentation.ts), never at import: the re-read worker, the reconciler's passes, and the
 * flush of the stream's health counters with the delivery log (./delivery-log.ts). `stopEventWork` ends all three and waits for them.
 */
const HEALTH_FLUSH_MS = 3_000;
const RECONCILE_EVERY_MS = 5_000;

type Timers = { health: ReturnType<typeof setInterval>; reconcile: ReturnType<typeof setInterval>; passes: Set<Promise<unknown>> };

const KEY = Symbol.for("mail-dashboard.event-work");
const holder = () => globalThis as { [KEY]?: Timers };

export function startEventWork(opts: { reconcileEveryMs?: number; healthFlushMs?: number } = {}): void {
  if (holder()[KEY]) return;
  const passes = new Set<Promise<unknown>>();
  const track = (label: string, run: () => Promise<unknown>) => {
    const p = run()
      .catch((e) => console.warn(`${label}: ${safeErrorSummary(e)}`))
      .finally(() => passes.delete(p));
    passes.add(p);
  };
  let reconciling = false;
  const health = setInterval(() => {
    track("event stream health", flushStreamHealth);
    track("delivery log", flushDeliveryLog);
  }, opts.healthFlushMs ?? HEALTH_FLUSH_MS);
  const reconcile = setInterval(() => {
    if (reconciling) return;
    reconciling = true;
    track("reconciler", () => reconcileOnce().finally(() => (reconciling = false)));
  }, opts.reconcileEveryMs ?? RECONCILE_EVERY_MS);
  health.unref?.();
  reconcile.unref?.();
  holder()[KEY] = { health, reconcile, passes };
  startRereadWorker();
}

export async function stopEventWork(): Promise<void> {
  const t = holder()[KEY];
  delete holder()[KEY];
  if (t) {
    clearInterval(t.health);
    clearInterval(t.reconcile);
    await Promise.allSettled([...t.passes]);
  }
  await stopRereadWorker();
  await flushStreamHealth().catch(() => {});
  await flushDeliveryLog().catch(() => {});
}
