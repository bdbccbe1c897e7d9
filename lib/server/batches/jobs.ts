import "server-only";
import { and, asc, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { chunk, retryChunkIdempotencyKey } from "@/lib/batch/chunks";
import { resultsToCsv } from "@/lib/batch/export";
import type { BatchRowOutcome, BatchRowStatus, CheckResult, JobCounts, JobKind, JobRowsPage, JobView } from "@/lib/schemas/batch";
import type { z } from "zod";
import type { batchCheckRequest, batchJobRequest, contactImportRequest } from "@/lib/schemas/compose";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { batchChunks, batchJobs, batchRows, type BatchJobRow } from "@/lib/server/db/schema/batches";
import { checkContent, checkFileInSlices, type CheckedRow } from "./check";
import { oneFileAtATime } from "./file-lock";
import { resumeIfStalled, runJob } from "./runner";
import { storeCheckedJob } from "./store";


/** Rows listed as problems by the screen's check; 10,000 fine rows need no listing. */
const MAX_PROBLEMS = 1_000;

/** The screen's check: every row, as the job would take it, and the totals. Nothing is stored or sent. */
export async function checkBatch(project: Project, actor: Pick<Actor, "id">, input: z.output<typeof batchCheckRequest>): Promise<CheckResult> {
  const content = checkContent(input.content);
  const problems: CheckedRow[] = [];
  const summary = await oneFileAtATime(actor.id, () =>
    checkFileInSlices(project.externalId, input.csv, input.mapping, content, (rows) => {
      for (const r of rows) if (r.status !== "pending" && problems.length < MAX_PROBLEMS) problems.push(r);
    }),
  );
  return { summary, problems };
}

const newJobId = () => crypto.randomUUID().replace(/-/g, "");

export async function createSendJob(project: Project, actor: Actor, input: z.output<typeof batchJobRequest>, opts: { start?: boolean } = {}): Promise<{ id: string }> {
  const content = checkContent(input.content);
  const id = newJobId();
  await oneFileAtATime(actor.id, () =>
    storeCheckedJob(
      { id, projectId: project.id, projectExternalId: project.externalId, kind: "send", fileName: input.fileName ?? null, content, totalRows: 0, createdBy: actor.id, createdByEmail: actor.email },
      (sink) => checkFileInSlices(project.externalId, input.csv, input.mapping, content, sink),
      async (summary, activate) => {
        if (summary.toSend !== input.confirmCount) {
          throw new AppError(409, "count_changed", `confirmCount: the file now sends ${summary.toSend} messages, not ${input.confirmCount}; check it again`, "confirmCount");
        }
        if (summary.toSend === 0) throw new AppError(400, "validation_error", "csv: no row can be sent", "csv");
        await withAudit({ actor, action: "batch.start", project: project.externalId, target: id, detail: { ...summary, fileName: input.fileName ?? null } }, activate);
      },
    ),
  );
  if (opts.start !== false) void runJob(id);
  return { id };
}

export async function createContactImport(project: Project, actor: Actor, input: z.output<typeof contactImportRequest>): Promise<{ id: string }> {
  const id = newJobId();
  await oneFileAtATime(actor.id, () =>
    storeCheckedJob(
      { id, projectId: project.id, projectExternalId: project.externalId, kind: "contacts", fileName: input.fileName ?? null, content: { subscribed: input.subscribed }, totalRows: 0, createdBy: actor.id, createdByEmail: actor.email },
      // Suppression does not stop a contact from existing: only malformed and repeated rows are left out.
      (sink) => checkFileInSlices(project.externalId, input.csv, input.mapping, null, (rows) => sink(rows.map((r) => (r.status === "suppressed" ? { ...r, status: "pending" as const, error: null } : r)))),
      (summary, activate) => withAudit({ actor, action: "contacts.import", project: project.externalId, target: id, detail: { total: summary.total, fileName: input.fileName ?? null } }, activate),
    ),
  );
  void runJob(id);
  return { id };
}

async function loadJob(project: Project, id: string, kind: JobKind): Promise<BatchJobRow> {
  const d = await db();
  const [job] = await d.select().from(batchJobs).where(and(eq(batchJobs.id, id), eq(batchJobs.projectId, project.id), eq(batchJobs.kind, kind), ne(batchJobs.status, "preparing"))).limit(1);
  if (!job) throw new AppError(404, "not_found", "Batch job not found.");
  return job;
}

async function counts(jobId: string): Promise<JobCounts> {
  const d = await db();
  const rows = await d.select({ status: batchRows.status, n: sql<number>`count(*)::int` }).from(batchRows).where(eq(batchRows.jobId, jobId)).groupBy(batchRows.status);
  const out: JobCounts = { pending: 0, sent: 0, failed: 0, invalid: 0, suppressed: 0, duplicate: 0 };
  for (const r of rows) out[r.status as BatchRowStatus] = Number(r.n);
  return out;
}

const toView = (job: BatchJobRow, c: JobCounts): JobView => ({
  id: job.id,
  kind: job.kind,
  // Jobs still `preparing` are never read here (loadJob, listJobs).
  status: job.status === "done" ? "done" : "running",
  fileName: job.fileName,
  totalRows: job.totalRows,
  retryRound: job.retryRound,
  counts: c,
  createdByEmail: job.createdByEmail,
  createdAt: job.createdAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
  content: job.content,
});

/** A job with its counts; opening or polling it resumes it at once when it was left unfinished (the sweeper would, a little later). */
export async function getJob(project: Project, id: string, kind: JobKind = "send"): Promise<JobView> {
  const job = await loadJob(project, id, kind);
  await resumeIfStalled(job);
  return toView(job, await counts(job.id));
}

export async function listJobs(project: Project, kind: JobKind): Promise<JobView[]> {
  const d = await db();
  // What a restart left behind is resumed by the sweeper (runner.ts), not by visiting the list.
  const jobs = await d.select().from(batchJobs).where(and(eq(batchJobs.projectId, project.id), eq(batchJobs.kind, kind), ne(batchJobs.status, "preparing"))).orderBy(desc(batchJobs.createdAt)).limit(50);
  return Promise.all(jobs.map(async (j) => toView(j, await counts(j.id))));
}

const outcome = (r: typeof batchRows.$inferSelect): BatchRowOutcome => ({
  row: r.row,
  email: r.email,
  name: r.name,
  status: r.status as BatchRowStatus,
  messageId: r.messageId,
  error: r.errorMessage ? { message: r.errorMessage, code: r.errorCode, field: r.errorField } : null,
});

/** Rows of a job in file order from `after` (a row number), optionally of some statuses only. */
export async function jobRows(project: Project, id: string, opts: { statuses?: BatchRowStatus[]; after?: number; limit?: number }, kind: JobKind = "send"): Promise<JobRowsPage> {
  const job = await loadJob(project, id, kind);
  const d = await db();
  const limit = Math.min(opts.limit ?? 100, 500);
  const rows = await d
    .select()
    .from(batchRows)
    .where(and(eq(batchRows.jobId, job.id), opts.statuses?.length ? inArray(batchRows.status, opts.statuses) : undefined, opts.after ? gt(batchRows.row, opts.after) : undefined))
    .orderBy(asc(batchRows.row))
    .limit(limit + 1);
  return { data: rows.slice(0, limit).map(outcome), nextAfter: rows.length > limit ? rows[limit - 1].row : null };
}

/**
 * The per-row outcomes as CSV, streamed: rows are read 5,000 at a time in file order and
 * written as they come, so a 100,000-row job's download never sits whole in memory.
 */
const EXPORT_PAGE = 5_000;

export async function jobResultsCsv(project: Project, id: string, kind: JobKind = "send"): Promise<{ csv: ReadableStream<Uint8Array>; fileName: string }> {
  const job = await loadJob(project, id, kind);
  const d = await db();
  const encoder = new TextEncoder();
  let after = 0;
  let first = true;
  const csv = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await d
        .select()
        .from(batchRows)
        .where(and(eq(batchRows.jobId, job.id), gt(batchRows.row, after)))
        .orderBy(asc(batchRows.row))
        .limit(EXPORT_PAGE);
      if (first || rows.length) {
        const page = resultsToCsv(rows.map(outcome));
        // The header (and byte-order mark) once, at the top; later pages are rows only.
        controller.enqueue(encoder.encode(first ? page : page.slice(page.indexOf("\r\n") + 2)));
        first = false;
      }
      if (rows.length < EXPORT_PAGE) controller.close();
      else after = rows[rows.length - 1].row;
    },
  });
  return { csv, fileName: `batch-${job.id}-results.csv` };
}

/**
 * "Retry failed rows": rows the service refused or that failed are sent again in a new
 * round, with keys derived from the round and the rows (not the first pass's keys, which
 * would only replay the failures). Invalid and suppressed rows are not retried.
 */
export async function retryFailed(project: Project, actor: Actor, id: string, kind: JobKind = "send"): Promise<{ retried: number }> {
  const job = await loadJob(project, id, kind);
  if (job.status === "running") throw new AppError(409, "job_running", "The job is still running; retry failed rows once it has finished.");
  const d = await db();
  const failed = await d.select({ row: batchRows.row }).from(batchRows).where(and(eq(batchRows.jobId, job.id), eq(batchRows.status, "failed"))).orderBy(asc(batchRows.row));
  if (!failed.length) return { retried: 0 };
  const round = job.retryRound + 1;
  const groups = chunk(failed.map((r) => r.row));
  const chunks = await Promise.all(groups.map(async (rows, idx) => ({ jobId: job.id, round, idx, rows, idempotencyKey: await retryChunkIdempotencyKey(job.id, round, rows) })));
  await withAudit({ actor, action: "batch.retry_failed", project: project.externalId, target: job.id, detail: { rows: failed.length, round } }, () =>
    d.transaction(async (tx) => {
      await tx.update(batchJobs).set({ retryRound: round, status: "running", finishedAt: null, updatedAt: new Date() }).where(eq(batchJobs.id, job.id));
      await tx.update(batchRows).set({ status: "pending", errorMessage: null, errorCode: null, errorField: null }).where(and(eq(batchRows.jobId, job.id), eq(batchRows.status, "failed")));
      await tx.insert(batchChunks).values(chunks);
    }),
  );
  void runJob(job.id);
  return { retried: failed.length };
}
