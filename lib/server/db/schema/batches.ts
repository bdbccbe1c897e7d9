import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, leaseColumns } from "./columns";
import { projectIdColumn } from "./core";

/**
 * Batch jobs ("batch from a file" and contact imports). Everything a job needs to run is
 * stored when it is created — the rows in file order and the content — so any dashboard
 * instance can pick it up after a restart and chunk N is always the same rows (its
 * Idempotency-Key depends on that: lib/batch/chunks.ts).
 */
export const batchJobs = pgTable(
  "batch_jobs",
  {
    id: text("id").primaryKey(),
    projectId: projectIdColumn(),
    /** The service's project id, so a runner with no request in hand can name the project. */
    projectExternalId: text("project_external_id").notNull(),
    /** `send`: messages through POST /v1/emails/batch; `contacts`: POST /v1/contacts per row; `suppressions`: POST /v1/suppressions per row. */
    kind: text("kind", { enum: ["send", "contacts", "suppressions"] }).notNull(),
    /**
     * `preparing` while its file is being stored (never listed, opened or claimed: deleted if
     * its instance dies then), `running` while chunks are pending or claimed, `done` when none are left.
     */
    status: text("status", { enum: ["preparing", "running", "done"] }).notNull().default("running"),
    fileName: text("file_name"),
    /** What every row shares: from, subject/html/text or templateId, tags (kind `send`). */
    content: jsonb("content").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    totalRows: integer("total_rows").notNull(),
    /** Rounds of "retry failed rows" started so far (0: first pass only). */
    retryRound: integer("retry_round").notNull().default(0),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    finishedAt: at("finished_at"),
  },
  (t) => [index("batch_jobs_project_created_idx").on(t.projectId, t.createdAt.desc())],
);

/** One row of the file with its outcome. `row` is the spreadsheet row number (header = 1). */
export const batchRows = pgTable(
  "batch_rows",
  {
    /**
     * No foreign key: its check, a look-up and a lock per row, took a third of the time of
     * inserting a 100,000-row file's rows. The rows still go with their job (a statement
     * trigger on batch_jobs, drizzle/0010), and are only stored while the job is locked
     * (lib/server/batches/store.ts).
     */
    jobId: text("job_id").notNull(),
    row: integer("row").notNull(),
    email: text("email").notNull(),
    name: text("name"),
    data: jsonb("data").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** BATCH_ROW_STATUSES (lib/schemas/batch.ts). */
    status: text("status").notNull(),
    messageId: text("message_id"),
    errorMessage: text("error_message"),
    errorCode: text("error_code"),
    errorField: text("error_field"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.row] }), index("batch_rows_job_status_idx").on(t.jobId, t.status)],
);

/**
 * A chunk of at most 100 rows and its Idempotency-Key. Claimed with FOR UPDATE SKIP LOCKED
 * and a lease: an instance that dies mid-chunk leaves a claim that expires, and whoever
 * takes it next re-sends with the same key, so the service replays instead of sending again.
 */
export const batchChunks = pgTable(
  "batch_chunks",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => batchJobs.id, { onDelete: "cascade" }),
    /** 0 for the first pass, then the retry round. */
    round: integer("round").notNull(),
    idx: integer("idx").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    rows: jsonb("rows").$type<number[]>().notNull(),
    status: text("status", { enum: ["pending", "claimed", "done"] }).notNull().default("pending"),
    ...leaseColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.round, t.idx] }),
    index("batch_chunks_status_idx").on(t.status, t.leaseUntil),
    // The next chunk to claim, in order, without stepping over the done ones (claimChunk).
    index("batch_chunks_open_idx").on(t.jobId, t.round, t.idx).where(sql`${t.status} <> 'done'`),
  ],
);

export type BatchJobRow = typeof batchJobs.$inferSelect;
export type BatchRowRow = typeof batchRows.$inferSelect;
export type BatchChunkRow = typeof batchChunks.$inferSelect;
