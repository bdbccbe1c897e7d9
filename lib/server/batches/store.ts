import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { chunkIdempotencyKey } from "@/lib/batch/chunks";
import { MAX_BATCH_SIZE } from "@/lib/schemas/limits";
import { rowsOf } from "@/contract/db-rows";
import { db, type Db } from "@/lib/server/db";
import { batchJobs } from "@/lib/server/db/schema/batches";
import { redactorFor, type Redactor } from "@/lib/server/redaction/redactor";
import type { CheckedRow, CheckedRowSink, CheckSummary } from "./check";

/**
 * Rows per transaction while a file is stored. A 100,000-row file is fifty transactions of
 * one row statement and one chunk statement each, not one transaction of everything: PGlite's
 * memory grows to the largest statement and transaction it has run and never gives it back,
 * and the rows' objects and JSON are held one piece at a time.
 */
export const STORE_ROWS = 2_000;

/**
 * A job stays `preparing` while its file is stored: never listed, opened, claimed or swept.
 * One whose instance died while storing it is deleted once it has not moved for this long.
 */
export const PREPARING_ABANDONED_MS = 10 * 60_000;

/**
 * Stores the checked rows of a job and its first-pass chunks as they come, in transactions
 * of STORE_ROWS rows. Chunk N is the next MAX_BATCH_SIZE sendable rows in file order, its
 * key fixed here (lib/batch/chunks.ts), so the chunks are the same however the rows were cut.
 */
class JobWriter {
  private buffer: CheckedRow[] = [];
  private sendable: number[] = [];
  private nextChunk = 0;

  constructor(
    private readonly d: Db,
    private readonly jobId: string,
    private readonly projectId: string,
  ) {}

  readonly add: CheckedRowSink = async (rows) => {
    for (const r of rows) this.buffer.push(r);
    while (this.buffer.length >= STORE_ROWS) await this.flush(this.buffer.splice(0, STORE_ROWS), false);
  };

  async end(): Promise<void> {
    await this.flush(this.buffer.splice(0), true);
  }

  private async flush(checked: CheckedRow[], last: boolean): Promise<void> {
    if (!checked.length && !(last && this.sendable.length)) return;
    const jobId = this.jobId;
    const storeRows = async (tx: Db) => {
      const rows = redactedRows(checked, await redactorFor(tx, this.projectId));
      for (const r of rows) if (r.status === "pending") this.sendable.push(r.row);
      const chunks: { i: number; k: string; r: number[] }[] = [];
      while (this.sendable.length >= MAX_BATCH_SIZE || (last && this.sendable.length)) {
        const i = this.nextChunk++;
        chunks.push({ i, k: chunkIdempotencyKey(this.jobId, i), r: this.sendable.splice(0, MAX_BATCH_SIZE) });
      }
      // First, the heartbeat that keeps the sweeper from taking this job for abandoned. It
      // locks the job, so rows are never stored for one deleted meanwhile (they have no
      // foreign key; the job's delete trigger takes them: drizzle/0010).
      const alive = await tx
        .update(batchJobs)
        .set({ updatedAt: new Date() })
        .where(and(eq(batchJobs.id, jobId), eq(batchJobs.status, "preparing")))
        .returning({ id: batchJobs.id });
      if (!alive.length) throw new Error(`batch job ${jobId} was removed while its file was stored`);
      if (rows.length) {
        // One JSON document unpacked by the database (jsonb_to_recordset): one parameter, not nine per row.
        const doc = JSON.stringify(rows.map((r) => ({ r: r.row, e: r.email, n: r.name, d: r.data, s: r.status, m: r.error?.message ?? null, c: r.error?.code ?? null, f: r.error?.field ?? null })));
        await tx.execute(sql`
          insert into batch_rows (job_id, row, email, name, data, status, error_message, error_code, error_field)
          select ${jobId}, x.r, x.e, x.n, coalesce(x.d, '{}'::jsonb), x.s, x.m, x.c, x.f
            from jsonb_to_recordset(${doc}::jsonb) as x(r int, e text, n text, d jsonb, s text, m text, c text, f text)`);
      }
      if (chunks.length) {
        await tx.execute(sql`
          insert into batch_chunks (job_id, round, idx, idempotency_key, rows)
          select ${jobId}, 0, x.i, x.k, x.r
            from jsonb_to_recordset(${JSON.stringify(chunks)}::jsonb) as x(i int, k text, r jsonb)`);
      }
    };
    await this.d.transaction(storeRows);
  }
}

/**
 * The rows as they may be stored after the project's erasures: a row for an erased address
 * keeps only its hash and is not sent (as the erasure leaves a row not sent yet,
 * lib/server/retention/erase.ts); the other rows lose any erased address from their name,
 * merge data and message.
 */
function redactedRows(rows: CheckedRow[], r: Redactor): CheckedRow[] {
  if (!r.active) return rows;
  return rows.map((row) => {
    const marker = r.markerOf(row.email);
    const error = row.error && { ...row.error, message: r.text(row.error.message) };
    if (marker) return { ...row, email: marker, name: null, data: {}, status: row.status === "pending" ? "invalid" : row.status, error: row.status === "pending" ? ERASED : error };
    return { ...row, name: r.maybe(row.name), data: r.json(row.data), error };
  });
}

/** How a row of an erased address is left: not sent, and never retried. */
export const ERASED = { message: "email: erased on request before it was sent", code: "erased", field: "email" };

/**
 * Creates a job from a file checked in slices: the job is inserted `preparing`, each slice of
 * checked rows is stored as it comes (`check` feeds the sink), and once the whole file is in,
 * `accept` judges the totals (throwing refuses the job) and the job turns `running` in one
 * statement — the moment it can be claimed. Refused, failed or interrupted, the job and every
 * row stored so far are deleted: nothing half-stored is ever sent.
 */
export async function storeCheckedJob(
  job: typeof batchJobs.$inferInsert & { id: string },
  check: (sink: CheckedRowSink) => Promise<CheckSummary>,
  accept: (summary: CheckSummary, activate: () => Promise<void>) => Promise<void>,
): Promise<CheckSummary> {
  const d = await db();
  // The file's name and the shared content are the project's records too: no erased address in
  // them. The runner sends what is stored, so the mail carries the address's marker instead.
  await d.transaction(async (tx) => {
    const r = await redactorFor(tx, job.projectId);
    await tx.insert(batchJobs).values({ ...job, fileName: r.maybe(job.fileName), content: r.json(job.content), status: "preparing", totalRows: 0 });
  });
  try {
    const writer = new JobWriter(d, job.id, job.projectId);
    const summary = await check(writer.add);
    await writer.end();
    // Fresh statistics before the first chunk is claimed. Without them (PGlite has no
    // autovacuum; Postgres's comes later) the planner took a new job's rows for a handful and
    // read each chunk's hundred rows through the (job, status) index, every pending row of the
    // job each time, and sorted every open chunk to claim one: a third of a 100,000-row job's time.
    if (summary.total >= STORE_ROWS) await d.execute(sql`analyze batch_rows, batch_chunks`);
    await accept(summary, async () => {
      const activated = await d
        .update(batchJobs)
        .set({ status: "running", totalRows: summary.total, updatedAt: new Date() })
        .where(and(eq(batchJobs.id, job.id), eq(batchJobs.status, "preparing")))
        .returning({ id: batchJobs.id });
      if (!activated.length) throw new Error(`batch job ${job.id} was removed while its file was stored`);
    });
    return summary;
  } catch (e) {
    // The rows and chunks go with the job (on delete cascade).
    await d
      .delete(batchJobs)
      .where(and(eq(batchJobs.id, job.id), eq(batchJobs.status, "preparing")))
      .catch(() => {});
    throw e;
  }
}

/** Deletes jobs whose instance died while storing their file (the sweeper's first step). */
export async function removeAbandonedPreparing(d: Db, olderThanMs = PREPARING_ABANDONED_MS): Promise<number> {
  const gone = await d.execute(sql`
    delete from batch_jobs where status = 'preparing' and updated_at < now() - (${String(olderThanMs)}::int * interval '1 millisecond') returning id`);
  return rowsOf(gone).length;
}
