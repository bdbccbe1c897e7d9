import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { NO_ERASURE, redactorFor } from "@/lib/server/redaction/redactor";
import { and, eq, sql } from "drizzle-orm";
import { isAppError } from "@/lib/errors";
import type { BatchContent } from "@/lib/schemas/compose";
import type { SendEmail } from "@/lib/schemas/emails";
import { db, type Db } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { batchChunks, batchJobs, batchRows, type BatchChunkRow, type BatchJobRow } from "@/lib/server/db/schema/batches";
import { rowsOf } from "@/contract/db-rows";
import { recordBatchRows } from "@/lib/server/metrics/work";
import { recordSentMessagesIn } from "@/lib/server/message-index/record";
import { service } from "@/lib/server/service";
import { rowSend } from "./check";
import { importContactRow } from "./contact-rows";
import { markErased, withoutErased, type ErasedRow } from "./erased-rows";
import type { Outcome } from "./outcome";
import { addSuppressionRows } from "./suppression-rows";

/**
 * The job runner. Chunks are claimed with FOR UPDATE SKIP LOCKED and a lease, so several
 * dashboard instances on one Postgres database each take different chunks, and a chunk
 * whose instance died is taken again once its lease runs out — re-sent with the same
 * Idempotency-Key, so the service replays its first answer instead of sending twice.
 */
export const INSTANCE_ID = crypto.randomUUID();
/** A chunk that failed transiently this many times is given up, its rows marked failed (retry failed rows re-sends them). */
const MAX_ATTEMPTS = 8;

/** Claims the next chunk of a job that is pending, or claimed under a lease that ran out. */
export async function claimChunk(d: Db, jobId: string, instance = INSTANCE_ID, leaseMs = env().BATCH_LEASE_MS): Promise<BatchChunkRow | null> {
  const result = await d.execute(sql`
    update batch_chunks c
       set status = 'claimed', claimed_by = ${instance}, lease_until = now() + (${String(leaseMs)}::int * interval '1 millisecond'), attempts = c.attempts + 1
     where (c.job_id, c.round, c.idx) = (
       select job_id, round, idx from batch_chunks
        where job_id = ${jobId} and status <> 'done' and (status = 'pending' or (status = 'claimed' and lease_until < now()))
        order by round, idx
        limit 1
        for update skip locked)
    returning c.job_id, c.round, c.idx, c.idempotency_key, c.rows, c.attempts`);
  const [r] = rowsOf(result);
  if (!r) return null;
  return {
    jobId: String(r.job_id),
    round: Number(r.round),
    idx: Number(r.idx),
    idempotencyKey: String(r.idempotency_key),
    rows: (typeof r.rows === "string" ? JSON.parse(r.rows) : r.rows) as number[],
    attempts: Number(r.attempts),
    status: "claimed",
    claimedBy: instance,
    leaseUntil: null,
    lastError: null,
  };
}


type Sent = Parameters<typeof recordSentMessagesIn>[1];
type JobRef = Pick<BatchJobRow, "projectId" | "kind">;

/**
 * Writes the outcomes of a chunk, the messages it sent into the index, and marks it done: one
 * transaction. The outcomes go in as one JSON document and the rows are reached through their
 * primary key with one array parameter (a list of a hundred parameters took PGlite ten times longer).
 */
async function finishChunk(d: Db, job: JobRef, chunk: BatchChunkRow, outcomes: Outcome[], sent: Sent = [], erased: ErasedRow[] = []) {
  const { projectId } = job;
  await d.transaction(async (tx) => {
    await recordSentMessagesIn(tx, sent);
    await markErased(tx, chunk.jobId, erased);
    if (outcomes.length) {
      // The service's reasons may quote the address: none an erasure took out of the project is written.
      const r = outcomes.some((o) => o.error) ? await redactorFor(tx, projectId) : NO_ERASURE;
      const values = JSON.stringify(outcomes.map((o) => ({ r: o.row, s: o.status, i: o.messageId, m: o.error ? r.text(o.error.message) : null, c: o.error?.code ?? null, f: o.error?.field ?? null })));
      // A row an erasure marked while its chunk was at the service stays as the erasure left it.
      await tx.execute(sql`
        update batch_rows r set status = v.s, message_id = v.i, error_message = v.m, error_code = v.c, error_field = v.f
          from jsonb_to_recordset(${values}::jsonb) as v(r int, s text, i text, m text, c text, f text)
         where r.job_id = ${chunk.jobId} and r.row = any(${rowArray(outcomes.map((o) => o.row))}::int[]) and r.row = v.r and r.status <> 'invalid'`);
    }
    await tx
      .update(batchChunks)
      .set({ status: "done", leaseUntil: null })
      .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.round, chunk.round), eq(batchChunks.idx, chunk.idx)));
  });
  // Counted once committed: a chunk whose write failed is sent again with its key, and counted then.
  recordBatchRows(job.kind, outcomes);
}

/** Row numbers as one Postgres array parameter: the rows are reached through the primary key, however far apart. */
const rowArray = (rows: readonly number[]) => `{${rows.join(",")}}`;

/**
 * The chunk's rows still pending, in file order. Read by their primary key, one array of row
 * numbers (a retry round's chunks may interleave), and kept to the pending ones here: with the
 * status in the query, the planner took the (job, status) index and read every pending row of
 * the job to find a hundred — a 100,000-row job read five billion rows over its chunks.
 */
async function pendingRowsOf(d: Db, chunk: BatchChunkRow) {
  if (!chunk.rows.length) return [];
  const rows = await d
    .select({ row: batchRows.row, email: batchRows.email, name: batchRows.name, data: batchRows.data, status: batchRows.status })
    .from(batchRows)
    .where(and(eq(batchRows.jobId, chunk.jobId), sql`${batchRows.row} = any(${rowArray(chunk.rows)}::int[])`))
    .orderBy(batchRows.row);
  return rows.filter((r) => r.status === "pending");
}

async function release(d: Db, chunk: BatchChunkRow, error: string) {
  await d
    .update(batchChunks)
    .set({ status: "pending", leaseUntil: null, claimedBy: null, lastError: error })
    .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.round, chunk.round), eq(batchChunks.idx, chunk.idx)));
}

type PendingRow = Awaited<ReturnType<typeof pendingRowsOf>>[number];

/** A claimed chunk with its rows still pending, read before it is sent (or why they could not be read). */
type Claimed = { chunk: BatchChunkRow; rows: PendingRow[] } | { chunk: BatchChunkRow; rows: null; error: unknown };

/** What sending a chunk came to: the outcomes to write, or the failure to judge (settle); and the rows left out as erased. */
type Delivery = ({ ok: true; outcomes: Outcome[]; sent: Sent } | { ok: false; error: unknown }) & { erased: ErasedRow[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claims the next chunk of the job and reads its pending rows; null when none is left to claim. */
async function claimNext(d: Db, jobId: string): Promise<Claimed | null> {
  const chunk = await claimChunk(d, jobId);
  if (!chunk) return null;
  // Test aid (BATCH_CHUNK_HOLD_MS): stop an instance holding a claim.
  const holdMs = env().BATCH_CHUNK_HOLD_MS;
  if (holdMs) await sleep(holdMs);
  try {
    return { chunk, rows: await pendingRowsOf(d, chunk) };
  } catch (error) {
    return { chunk, rows: null, error };
  }
}

/**
 * Sends one chunk of a `send` job through POST /v1/emails/batch with the chunk's key, or
 * imports a chunk of contacts, or adds a chunk of suppressions. Only rows still pending, and of those only the ones whose
 * address is not erased when the service is about to be called (./erased-rows.ts): a
 * recipient erased while the job is queued or running gets nothing. Never throws: a failure
 * is handed to `settle`, which releases the chunk or gives its rows up.
 */
async function deliver(d: Db, job: BatchJobRow, claimed: Claimed): Promise<Delivery> {
  let erased: ErasedRow[] = [];
  try {
    if (claimed.rows === null) throw claimed.error;
    const now = await withoutErased(d, job.projectId, claimed.rows, job.content as BatchContent);
    const rows = now.rows;
    erased = now.erased;
    if (job.kind === "contacts") {
      const outcomes: Outcome[] = [];
      for (const r of rows) outcomes.push(await importContactRow({ ...job, content: now.content }, r));
      return { ok: true, outcomes, sent: [], erased };
    }
    if (job.kind === "suppressions") return { ok: true, outcomes: await addSuppressionRows({ ...job, content: now.content }, rows, claimed.chunk.attempts), sent: [], erased };
    if (!rows.length) return { ok: true, outcomes: [], sent: [], erased };
    const sends: SendEmail[] = rows.map((r) => rowSend(now.content, r));
    const key = claimed.chunk.idempotencyKey;
    const answer = await service.emails.batch(job.projectExternalId, sends, key);
    const sent: Sent = [];
    const outcomes = rows.map((r, i): Outcome => {
      const item = answer.data[i];
      if (item?.id && !item.error) {
        sent.push({ projectId: job.projectId, messageId: item.id, request: sends[i], sentBy: job.createdBy, idempotencyKey: key, source: "batch", batchJobId: job.id, status: item.status });
        return { row: r.row, status: "sent", messageId: item.id, error: null };
      }
      const e = item?.error ?? { message: "the service gave no answer for this row", code: "no_answer", param: null };
      // The service names the field as `emails.N.to.0.email`; the row only needs `to.0.email`.
      const field = e.param ? e.param.replace(/^emails\.\d+\./, "") : null;
      return { row: r.row, status: "failed", messageId: null, error: { message: e.message, code: e.code, field } };
    });
    return { ok: true, outcomes, sent, erased };
  } catch (error) {
    return { ok: false, error, erased };
  }
}

/**
 * Writes what a chunk's delivery came to. A transient failure (the service's 5xx, 429 or
 * key in flight; anything unexpected, the database's own failures included) releases the
 * chunk to be sent again with its key, up to MAX_ATTEMPTS; anything else gives its rows up
 * as failed, with the service's reason.
 */
async function settle(d: Db, job: JobRef, claimed: Claimed, delivery: Delivery): Promise<void> {
  const { chunk } = claimed;
  try {
    if (!delivery.ok) throw delivery.error;
    await finishChunk(d, job, chunk, delivery.outcomes, delivery.sent, delivery.erased);
  } catch (e) {
    const transient = !isAppError(e) || e.status >= 500 || e.status === 429 || e.code === "idempotency_in_flight";
    const message = isAppError(e) ? e.message : "unexpected error";
    if (transient && chunk.attempts < MAX_ATTEMPTS) {
      await release(d, chunk, message);
      return;
    }
    const code = isAppError(e) ? e.code : "internal_error";
    const field = isAppError(e) ? e.param : null;
    await finishChunk(d, job, chunk, chunk.rows.map((row) => ({ row, status: "failed", messageId: null, error: { message, code, field } })), [], delivery.erased);
  }
}

async function markDoneIfFinished(d: Db, jobId: string) {
  await d.execute(sql`
    update batch_jobs set status = 'done', finished_at = now(), updated_at = now()
     where id = ${jobId} and status = 'running'
       and not exists (select 1 from batch_chunks where job_id = ${jobId} and status <> 'done')`);
}

/**
 * One worker: claims and sends chunks until none is free.
 *
 * A send job's worker keeps its next chunk ready: while a chunk is at the service, the worker
 * writes the previous chunk's outcome and claims and reads the next one, and sends that one
 * the moment the answer is in, writing the answer meanwhile: the worker's next request does
 * not wait for the dashboard's database (on PGlite one connection, shared with the ingest).
 * Through the dashboard the service used 0.88–0.90 of a core against 1.03 straight
 * (bench:batch); with this and the event loop's turn after each PGlite statement
 * (lib/server/db/pglite.ts), 0.94–0.95 — this alone did not move it. A worker holds at most
 * two claims, the second for one round trip of the first (far inside BATCH_LEASE_MS).
 *
 * Contact imports and bulk suppressions (a request per row), and jobs paused between chunks (the test aid BATCH_CHUNK_PAUSE_MS: halfway
 * through a job), go one chunk at a time.
 */
async function work(d: Db, job: BatchJobRow) {
  const pauseMs = env().BATCH_CHUNK_PAUSE_MS;
  const ahead = job.kind === "send" && !pauseMs;
  let next = await claimNext(d, job.id);
  // The previous chunk's outcome being written: its failure (the error itself, caught at once
  // so it is never unhandled) ends this worker, as a failed write always has.
  let writing: Promise<unknown> = Promise.resolve(null);
  for (;;) {
    if (!next) {
      // None left to claim while the last outcome was being written, which may have released
      // its chunk to be sent again: once it is written, look once more.
      const failed = await writing;
      if (failed) throw failed;
      writing = Promise.resolve(null);
      next = await claimNext(d, job.id);
      if (!next) return;
    }
    const current = next;
    const answer = deliver(d, job, current);
    if (ahead) {
      const failed = await writing;
      if (failed) throw failed;
      next = await claimNext(d, job.id);
      writing = settle(d, job, current, await answer).then(() => null, (e: unknown) => e ?? new Error("settle failed"));
    } else {
      await settle(d, job, current, await answer);
      if (pauseMs) await sleep(pauseMs);
      next = await claimNext(d, job.id);
    }
  }
}

const RUNNING = Symbol.for("mail-dashboard.batch-runs");
type Runs = Map<string, Promise<void>>;
function runs(): Runs {
  const holder = globalThis as { [RUNNING]?: Runs };
  return (holder[RUNNING] ??= new Map());
}

/** Whether this process is running the job now. */
export const isRunningHere = (jobId: string) => runs().has(jobId);

/** Whether this process is running any job now. */
export const jobsRunningHere = () => runs().size > 0;

/** Runs a job in this instance (once at a time per job) until no chunk is left to claim. */
export function runJob(jobId: string): Promise<void> {
  const current = runs().get(jobId);
  if (current) return current;
  const p = (async () => {
    const d = await db();
    const [job] = await d.select().from(batchJobs).where(eq(batchJobs.id, jobId)).limit(1);
    // A job still `preparing` is not complete yet: its chunks wait until it turns `running`.
    if (!job || job.status !== "running") return;
    await Promise.all(Array.from({ length: env().BATCH_WORKERS }, () => work(d, job)));
    await markDoneIfFinished(d, jobId);
  })()
    .catch((e) => console.error(`batch job ${jobId}: ${safeErrorSummary(e)}`))
    .finally(() => runs().delete(jobId));
  runs().set(jobId, p);
  return p;
}

/**
 * Resumes a job left unfinished (the tab closed, a restart, the service failing): called
 * when the job screen is opened or polled, and by the sweeper. A chunk still leased to
 * another live instance is left to it; one whose lease ran out is taken here.
 */
export async function resumeIfStalled(job: Pick<BatchJobRow, "id" | "status">): Promise<void> {
  if (job.status !== "running" || runs().has(job.id)) return;
  const d = await db();
  const open = rowsOf(
    await d.execute(sql`select 1 from batch_chunks where job_id = ${job.id} and (status = 'pending' or (status = 'claimed' and lease_until < now())) limit 1`),
  );
  if (open.length) void runJob(job.id);
  else await markDoneIfFinished(d, job.id);
}

/** Waits for every job this process is running (tests, shutdown). */
export async function settleRunningJobs(): Promise<void> {
  await Promise.allSettled([...runs().values()]);
}
