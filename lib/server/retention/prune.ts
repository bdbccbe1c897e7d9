import "server-only";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { db } from "@/lib/server/db";
import { batchChunks, batchJobs } from "@/lib/server/db/schema/batches";
import { projects } from "@/lib/server/db/schema/core";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { erasedMessages } from "@/lib/server/db/schema/retention";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { deleteLinkPeopleSql, holdRefresherLock } from "@/lib/server/insight/refresh";
import { pruneDmarc, type DmarcPruned, type DmarcPruneKind } from "./prune-dmarc";

/**
 * Retention: the dashboard's own records older than the cutoff, removed in small batches.
 * Every batch is one short transaction (a few hundred messages with their addresses, events
 * and queued re-reads), and a pause follows it, so searches and the ingest of new events go
 * on beside a prune of millions of rows: nothing holds a lock for longer than one batch, and
 * rows another transaction is writing are skipped (SKIP LOCKED) and taken next time.
 *
 * What goes: index messages created before the cutoff (not those still scheduled after it),
 * their recipients (by cascade), their events and re-reads (insight's rollups follow, through
 * the refresher); re-reads, link clickers and erasure tombstones older than the cutoff; batch jobs finished before it, rows and chunks included;
 * DMARC reports that arrived before it, with their records, and their finished jobs (./prune-dmarc.ts).
 * Kept: the audit log, users, projects, the contacts index (not dated history), and the
 * service's own data, which the interface gives no way to delete.
 */
export type PruneOptions = {
  cutoff: Date;
  batchSize: number;
  pauseMs: number;
  /** Checked between batches: a stopping server ends the pass there. */
  signal?: AbortSignal;
  /** Called after each batch (tests: to act between two transactions). */
  onBatch?: (what: "messages" | "batch_rows" | "rereads" | "link_clickers" | "tombstones" | DmarcPruneKind, removed: number) => Promise<void> | void;
};
export type PruneResult = { messages: number; batchJobs: number; batchRows: number; rereads: number; linkClickers: number; tombstones: number; batches: number } & DmarcPruned;

export async function pruneOnce(opts: PruneOptions): Promise<PruneResult> {
  const out: PruneResult = { messages: 0, batchJobs: 0, batchRows: 0, rereads: 0, linkClickers: 0, tombstones: 0, batches: 0, dmarcRecords: 0, dmarcReports: 0, dmarcJobs: 0, dmarcNames: 0 };
  const d = await db();
  const stopped = () => opts.signal?.aborted === true;
  const after = async (what: Parameters<NonNullable<PruneOptions["onBatch"]>>[0], removed: number) => {
    out.batches++;
    await opts.onBatch?.(what, removed);
    if (opts.pauseMs > 0 && !stopped()) await pause(opts.pauseMs, opts.signal);
  };

  // Per project, so each batch is found through (project_id, created_at) rather than a scan.
  for (const { id: projectId } of await d.select({ id: projects.id }).from(projects)) {
    while (!stopped()) {
      const removed = await d.transaction(async (tx) => {
        const doomed = await tx
          .select({ id: indexedMessages.id })
          .from(indexedMessages)
          .where(
            and(
              eq(indexedMessages.projectId, projectId),
              lt(indexedMessages.createdAt, opts.cutoff),
              sql`(${indexedMessages.scheduledAt} is null or ${indexedMessages.scheduledAt} < ${opts.cutoff.toISOString()}::timestamptz)`,
            ),
          )
          .orderBy(asc(indexedMessages.createdAt))
          .limit(opts.batchSize)
          .for("update", { skipLocked: true });
        if (!doomed.length) return 0;
        const ids = doomed.map((r) => r.id);
        await tx.delete(indexedEvents).where(and(eq(indexedEvents.projectId, projectId), inArray(indexedEvents.messageId, ids)));
        await tx.delete(messageRereads).where(and(eq(messageRereads.projectId, projectId), inArray(messageRereads.messageId, ids)));
        // indexed_recipients go with their message (on delete cascade).
        await tx.delete(indexedMessages).where(inArray(indexedMessages.id, ids));
        // Insight's rollups follow the index: the refresher takes these messages out of them.
        await markInsightDirty(tx, projectId, ids);
        return ids.length;
      });
      if (!removed) break;
      out.messages += removed;
      await after("messages", removed);
    }
  }

  // Re-reads queued long ago for messages that were never indexed (or another project's id).
  while (!stopped()) {
    const removed = rowsOf(
      await d.execute(sql`
        delete from message_rereads where (project_id, message_id) in (
          select project_id, message_id from message_rereads where created_at < ${opts.cutoff.toISOString()}::timestamptz limit ${opts.batchSize})
        returning 1`),
    ).length;
    if (!removed) break;
    out.rereads += removed;
    await after("rereads", removed);
  }

  // Who clicked a link, by address: the newest click of the address older than the cutoff.
  while (!stopped()) {
    const removed = await d.transaction(async (tx) => {
      await holdRefresherLock(tx);
      const [result] = rowsOf<{ removed: number }>(
        await tx.execute(
          deleteLinkPeopleSql(sql`
            delete from insight_link_recipients where (project_id, link, recipient) in (
              select project_id, link, recipient from insight_link_recipients where last_at < ${opts.cutoff.toISOString()}::timestamptz limit ${opts.batchSize})
            returning project_id, link, last_at`),
        ),
      );
      return Number(result?.removed ?? 0);
    });
    if (!removed) break;
    out.linkClickers += removed;
    await after("link_clickers", removed);
  }

  while (!stopped()) {
    const removed = (
      await d
        .delete(erasedMessages)
        .where(
          sql`(${erasedMessages.projectId}, ${erasedMessages.messageId}, ${erasedMessages.addressHash}) in (
            select project_id, message_id, address_hash from erased_messages where erased_at < ${opts.cutoff.toISOString()}::timestamptz limit ${opts.batchSize})`,
        )
        .returning({ id: erasedMessages.messageId })
    ).length;
    if (!removed) break;
    out.tombstones += removed;
    await after("tombstones", removed);
  }

  Object.assign(out, await pruneDmarc(d, opts.cutoff, opts.batchSize, stopped, after));

  // Finished batch jobs: their rows (up to 100,000 a job) in slices, then the job itself.
  const jobs = await d
    .select({ id: batchJobs.id })
    .from(batchJobs)
    .where(and(eq(batchJobs.status, "done"), lt(batchJobs.finishedAt, opts.cutoff)));
  for (const { id } of jobs) {
    while (!stopped()) {
      const removed = rowsOf(
        await d.execute(sql`
          delete from batch_rows where job_id = ${id} and row in (
            select row from batch_rows where job_id = ${id} order by row limit ${opts.batchSize})
          returning 1`),
      ).length;
      if (!removed) break;
      out.batchRows += removed;
      await after("batch_rows", removed);
    }
    if (stopped()) break;
    await d.delete(batchChunks).where(eq(batchChunks.jobId, id));
    await d.delete(batchJobs).where(eq(batchJobs.id, id));
    out.batchJobs++;
  }
  return out;
}

/** A pause that a stop ends at once. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
