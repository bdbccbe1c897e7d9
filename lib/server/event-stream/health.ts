import "server-only";
import { eq, sql } from "drizzle-orm";
import { db } from "@/lib/server/db";
import { eventStreamHealth, type EventStreamHealthRow } from "@/lib/server/db/schema/event-stream";

/**
 * The stream's health per project: counted in this process's memory and added to the
 * database every few seconds (`flushStreamHealth`), so thousands of deliveries a second never
 * fight over one row, and several instances' counts add up. A problem is logged once per
 * project and reason by each process, not once per delivery.
 */
export type Outcome = "accepted" | "unusable" | "refused";

type Pending = {
  accepted: number;
  unusable: number;
  refused: number;
  lastDeliveryAt: number;
  lastAcceptedAt: number | null;
  lastUnusableAt: number | null;
  lastRefusedAt: number | null;
  lastReason: string | null;
  lastReasonAt: number | null;
};

/** Reasons remembered for the once-only warning, per process (a bound, should a service vary its payloads endlessly). */
const MAX_WARNED = 1_000;

type State = { pending: Map<string, Pending>; warned: Set<string>; flushing: Promise<void> | null };

// On globalThis: the ingest route counts, the background flush (instrumentation) writes.
const KEY = Symbol.for("mail-dashboard.stream-health");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { pending: new Map(), warned: new Set(), flushing: null });
}

/**
 * Counts one delivery. `reason` (unusable, refused) is what the webhooks screen shows and the
 * log warns about once. A refusal is counted whoever sent it, but it moves the project's mode
 * (`last_refused_at`, ./mode.ts) only when `signed`: made with the project's key, its
 * timestamp out of tolerance. Anybody can post a delivery that does not verify, and a
 * stranger must not be able to switch a project to polling.
 */
export function countDelivery(
  project: { id: string; externalId: string },
  outcome: Outcome,
  reason?: string,
  log: Pick<Console, "warn"> = console,
  opts: { signed?: boolean } = {},
): void {
  const s = state();
  const projectId = project.id;
  const now = Date.now();
  let p = s.pending.get(projectId);
  if (!p) {
    p = { accepted: 0, unusable: 0, refused: 0, lastDeliveryAt: now, lastAcceptedAt: null, lastUnusableAt: null, lastRefusedAt: null, lastReason: null, lastReasonAt: null };
    s.pending.set(projectId, p);
  }
  p.lastDeliveryAt = now;
  p[outcome]++;
  if (outcome === "accepted") p.lastAcceptedAt = now;
  if (outcome === "unusable") p.lastUnusableAt = now;
  if (outcome === "refused" && opts.signed) p.lastRefusedAt = now;
  if (reason) {
    p.lastReason = reason;
    p.lastReasonAt = now;
    // One warning per kind of problem: "10 min old" and "11 min old" are the same problem.
    const key = `${projectId}\u0000${outcome}\u0000${reason.replace(/\d+/g, "#")}`;
    if (!s.warned.has(key) && s.warned.size < MAX_WARNED) {
      s.warned.add(key);
      const what = outcome === "refused" ? "refused a delivery (401)" : "acknowledged a delivery it cannot use";
      log.warn(`event stream: project ${project.externalId} ${what}: ${reason}. Further deliveries for the same reason are counted on the webhooks screen, not logged.`);
    }
  }
}

const ts = (ms: number | null) => (ms === null ? sql`null::timestamptz` : sql`${new Date(ms).toISOString()}::timestamptz`);
const later = (column: string, ms: number | null) => sql`greatest(${sql.raw(`event_stream_health.${column}`)}, ${ts(ms)})`;

/** Adds what this process counted since the last flush. Safe to call at any time; calls do not overlap. */
export async function flushStreamHealth(): Promise<void> {
  const s = state();
  while (s.flushing) await s.flushing;
  if (s.pending.size === 0) return;
  const batch = s.pending;
  s.pending = new Map();
  s.flushing = (async () => {
    const d = await db();
    for (const [projectId, p] of batch) {
      try {
        await d.execute(sql`
          insert into event_stream_health as event_stream_health
            (project_id, last_delivery_at, last_accepted_at, last_unusable_at, last_refused_at, accepted_count, unusable_count, refused_count, last_reason, last_reason_at, updated_at)
          values (${projectId}, ${ts(p.lastDeliveryAt)}, ${ts(p.lastAcceptedAt)}, ${ts(p.lastUnusableAt)}, ${ts(p.lastRefusedAt)},
                  ${p.accepted}, ${p.unusable}, ${p.refused}, ${p.lastReason}, ${ts(p.lastReasonAt)}, now())
          on conflict (project_id) do update set
            last_delivery_at = ${later("last_delivery_at", p.lastDeliveryAt)},
            last_accepted_at = ${later("last_accepted_at", p.lastAcceptedAt)},
            last_unusable_at = ${later("last_unusable_at", p.lastUnusableAt)},
            last_refused_at = ${later("last_refused_at", p.lastRefusedAt)},
            accepted_count = event_stream_health.accepted_count + excluded.accepted_count,
            unusable_count = event_stream_health.unusable_count + excluded.unusable_count,
            refused_count = event_stream_health.refused_count + excluded.refused_count,
            last_reason = case when excluded.last_reason_at is not null and (event_stream_health.last_reason_at is null or excluded.last_reason_at >= event_stream_health.last_reason_at)
                               then excluded.last_reason else event_stream_health.last_reason end,
            last_reason_at = ${later("last_reason_at", p.lastReasonAt)},
            updated_at = now()`);
      } catch (e) {
        // A project removed meanwhile (foreign key) or a database hiccup: health is best effort.
        console.warn(`event stream: could not record the health of project ${projectId}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  })().finally(() => {
    s.flushing = null;
  });
  await s.flushing;
}

export type StreamHealth = {
  lastDeliveryAt: Date | null;
  lastAcceptedAt: Date | null;
  lastUnusableAt: Date | null;
  lastRefusedAt: Date | null;
  acceptedCount: number;
  unusableCount: number;
  refusedCount: number;
  lastReason: string | null;
  lastReasonAt: Date | null;
};

export const EMPTY_HEALTH: StreamHealth = {
  lastDeliveryAt: null,
  lastAcceptedAt: null,
  lastUnusableAt: null,
  lastRefusedAt: null,
  acceptedCount: 0,
  unusableCount: 0,
  refusedCount: 0,
  lastReason: null,
  lastReasonAt: null,
};

/** The project's health as all instances flushed it, this process's latest counts included. */
export async function readStreamHealth(projectId: string): Promise<StreamHealth> {
  await flushStreamHealth();
  const [row] = await (await db()).select().from(eventStreamHealth).where(eq(eventStreamHealth.projectId, projectId)).limit(1);
  return row ? toHealth(row) : EMPTY_HEALTH;
}

/** Every project's health (the reconciler's pass reads them before it takes its lock). */
export async function readAllStreamHealth(): Promise<Map<string, StreamHealth>> {
  await flushStreamHealth();
  const rows = await (await db()).select().from(eventStreamHealth);
  return new Map(rows.map((r) => [r.projectId, toHealth(r)]));
}

function toHealth(r: EventStreamHealthRow): StreamHealth {
  return {
    lastDeliveryAt: r.lastDeliveryAt,
    lastAcceptedAt: r.lastAcceptedAt,
    lastUnusableAt: r.lastUnusableAt,
    lastRefusedAt: r.lastRefusedAt,
    acceptedCount: Number(r.acceptedCount),
    unusableCount: Number(r.unusableCount),
    refusedCount: Number(r.refusedCount),
    lastReason: r.lastReason,
    lastReasonAt: r.lastReasonAt,
  };
}

/** Tests: forget what was counted and warned in this process. */
export function resetStreamHealthMemory(): void {
  const s = state();
  s.pending.clear();
  s.warned.clear();
}
