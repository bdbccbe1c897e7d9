import "server-only";
import { asc, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { FINAL_STATUSES, SETTLE_QUIET_MS } from "@/lib/messages/vocabulary";
import { db, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { eventStreamModes } from "@/lib/server/db/schema/event-stream";
import { env } from "@/lib/server/env";
import { EMPTY_HEALTH, readAllStreamHealth } from "./health";
import { streamMode, type StreamMode } from "./mode";
import { enqueueRereads } from "@/lib/server/message-index/reread-queue";
import { nudgeRereads } from "@/lib/server/message-index/reread-worker";

/**
 * The reconciler: for when events do not come. Every pass, per project:
 *
 * - polling mode (lib/server/event-stream/mode.ts): the unsettled messages — status not known
 *   to be final, not quiet-settled (isSettled: no change for SETTLE_QUIET_MS), not waiting
 *   for their scheduled time, sent within RECONCILE_MAX_AGE_H — newest first, each at most
 *   once per RECONCILE_POLL_S, up to POLL_BATCH per pass;
 * - both modes, a slow safety net: messages still not final RECONCILE_SAFETY_MIN after they
 *   were sent, each at most once per RECONCILE_SAFETY_MIN, up to SAFETY_BATCH per pass.
 *
 * They are queued as re-reads (coalesced with any already waiting), which the worker reads at
 * the project's rate, honouring 429s. One pass runs per database at a time: the pass holds a
 * transaction-scoped advisory lock, and an instance that cannot take it skips its turn. The
 * modes it decided are kept (event_stream_modes, in the pass's transaction), so every instance
 * reports them on /api/metrics (lib/server/metrics/database-gauges.ts), not only the one that ran it.
 */
const POLL_BATCH = 100;
const SAFETY_BATCH = 20;
const LOCK_KEY = 0x6d61696c; // "mail"

const finals = () => sql.join([...FINAL_STATUSES].map((s) => sql`${s}`), sql`, `);
const hours = (n: number) => sql`(${String(n)}::int * interval '1 hour')`;
const seconds = (n: number) => sql`(${String(Math.round(n))}::int * interval '1 second')`;

/** The project's messages not final yet and younger than RECONCILE_MAX_AGE_H that also meet `condition`, newest first. */
async function openMessages(d: Db, projectId: string, condition: SQL, limit: number): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await d.execute(sql`
      select id from indexed_messages
       where project_id = ${projectId} and status not in (${finals()})
         and created_at > now() - ${hours(env().RECONCILE_MAX_AGE_H)}
         and ${condition}
       order by created_at desc
       limit ${limit}`),
  );
  return rows.map((r) => r.id);
}

/** Polling mode: not waiting for their time, not quiet-settled, not read within RECONCILE_POLL_S. */
function unsettled(d: Db, projectId: string): Promise<string[]> {
  const e = env();
  return openMessages(
    d,
    projectId,
    sql`(scheduled_at is null or scheduled_at <= now())
         and (last_event_at is null or last_event_at > now() - ${seconds(SETTLE_QUIET_MS / 1000)})
         and (checked_at is null or checked_at < now() - ${seconds(e.RECONCILE_POLL_S)})`,
    POLL_BATCH,
  );
}

/** The safety net: sent (or due) over RECONCILE_SAFETY_MIN ago and not read within it. */
function stuck(d: Db, projectId: string): Promise<string[]> {
  const safety = seconds(env().RECONCILE_SAFETY_MIN * 60);
  return openMessages(
    d,
    projectId,
    sql`coalesce(scheduled_at, created_at) < now() - ${safety}
         and (checked_at is null or checked_at < now() - ${safety})`,
    SAFETY_BATCH,
  );
}

export type ReconcileReport = { projectId: string; mode: StreamMode; queued: number };

/** The pass's modes replace the last pass's, all at once (a scrape never sees half a pass; a removed project's row went with it). */
async function keepModes(tx: Db, out: ReconcileReport[]): Promise<void> {
  await tx.delete(eventStreamModes);
  if (out.length > 0) await tx.insert(eventStreamModes).values(out.map((r) => ({ projectId: r.projectId, code: r.mode.code })));
}

/** One pass over every project; null when another instance holds the pass. */
export async function reconcileOnce(): Promise<ReconcileReport[] | null> {
  // Read first: PGlite has one connection, and the pass's transaction must be the only user of it.
  const health = await readAllStreamHealth();
  const d = await db();
  const report = await d.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`));
    if (!lock?.ok) return null;
    const out: ReconcileReport[] = [];
    for (const project of await tx.select({ id: projects.id, externalId: projects.externalId }).from(projects).orderBy(asc(projects.createdAt))) {
      const mode = await streamMode(project.id, health.get(project.id) ?? EMPTY_HEALTH, tx);
      const ids = new Set(await stuck(tx, project.id));
      if (mode.mode === "polling") for (const id of await unsettled(tx, project.id)) ids.add(id);
      out.push({ projectId: project.id, mode, queued: await enqueueRereads(tx, project.id, [...ids], "reconcile") });
    }
    await keepModes(tx, out);
    return out;
  });
  if (report?.some((r) => r.queued > 0)) nudgeRereads(0);
  return report;
}
