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
