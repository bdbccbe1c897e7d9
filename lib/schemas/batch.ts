import { z } from "zod";
import { BATCH_ROW_STATUSES } from "./words";

/**
 * Shapes of "batch from a file": how the file's columns map onto a send, and the outcome
 * of each row. Dashboard-only (the service knows batches of 100, not files).
 */

/** Merge-variable names as templates use them: `{{firstName}}`, `{{company_name}}`. */
export const mergeVariableName = z
  .string()
  .min(1, { error: "is required" })
  .max(100, { error: "must be at most 100 characters" })
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "may contain only letters, digits and underscores, and not start with a digit" });

const column = z.string().min(1, { error: "choose a column" }).max(500);

/** Column headers of the file → parts of each send. */
export const csvMapping = z
  .object({
    email: z.string({ error: "choose the column that holds the email address" }).min(1, {
      error: "choose the column that holds the email address",
    }),
    /** A full-name column; or firstName and/or lastName, joined with a space. */
    name: column.optional(),
    firstName: column.optional(),
    lastName: column.optional(),
    /** Header → merge-variable name. */
    variables: z.record(z.string(), mergeVariableName).default({}),
  })
  .refine((m) => !(m.name && (m.firstName || m.lastName)), {
    path: ["name"],
    error: "choose a full-name column or first and last name columns, not both",
  });
export type CsvMapping = z.input<typeof csvMapping>;

export { BATCH_ROW_STATUSES };
export const batchRowStatus = z.enum(BATCH_ROW_STATUSES);
export type BatchRowStatus = z.infer<typeof batchRowStatus>;

/** One row's outcome, as the job screen shows it and the results download lists it. */
export const batchRowOutcome = z.object({
  row: z.number().int().min(1),
  email: z.string(),
  name: z.string().nullable().optional(),
  status: batchRowStatus,
  messageId: z.string().nullable().optional(),
  error: z
    .object({ message: z.string(), code: z.string().nullable().optional(), field: z.string().nullable().optional() })
    .nullable()
    .optional(),
});
export type BatchRowOutcome = z.infer<typeof batchRowOutcome>;

/**
 * Our API's answers about jobs: a send from a file (/batches), a contact import
 * (/contacts/import) or suppressions added in bulk (/suppressions/bulk), the same shapes for all.
 */
export const JOB_KINDS = ["send", "contacts", "suppressions"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const jobCounts = z.record(batchRowStatus, z.number());
export type JobCounts = z.infer<typeof jobCounts>;

export const jobView = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(["running", "done"]),
  fileName: z.string().nullable(),
  totalRows: z.number(),
  retryRound: z.number(),
  counts: jobCounts,
  createdByEmail: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  content: z.record(z.string(), z.unknown()),
});
export type JobView = z.infer<typeof jobView>;
export const jobList = z.object({ data: z.array(jobView) });

/** One page of a job's rows, by row number. */
export const jobRowsPage = z.object({ data: z.array(batchRowOutcome), nextAfter: z.number().nullable() });
export type JobRowsPage = z.infer<typeof jobRowsPage>;
/** The rows a job screen opens on, read by its page shell for the URL it was opened with. */
export type FirstRows = { status: string | null; after: number | null; page: JobRowsPage };

export const jobCreated = z.object({ id: z.string() });
export const jobRetried = z.object({ retried: z.number() });

export const checkSummary = z.object({ total: z.number(), toSend: z.number(), invalid: z.number(), suppressed: z.number(), duplicate: z.number() });
export type CheckSummary = z.infer<typeof checkSummary>;

/** The screen's check of a file: the totals, and the rows that will not be sent (the first 1,000). */
export const checkResult = z.object({
  summary: checkSummary,
  problems: z.array(
    z.object({
      row: z.number(),
      email: z.string(),
      name: z.string().nullable(),
      status: batchRowStatus,
      error: z.object({ message: z.string(), code: z.string(), field: z.string() }).nullable(),
    }),
  ),
});
export type CheckResult = z.infer<typeof checkResult>;
