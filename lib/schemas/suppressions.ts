import { z } from "zod";
import { page } from "@/contract/wire/common";
import { suppression, suppressionReason } from "@/contract/wire/suppressions";
import { lineLimitIssue } from "@/lib/batch/line-limits";
import { MAX_SUPPRESSION_LINE_CHARS, MAX_SUPPRESSION_LIST_CHARS, MAX_SUPPRESSION_ROWS } from "./limits";

/** The interface's suppression shapes are the contract's: contract/wire/suppressions.ts. */
export * from "@/contract/wire/suppressions";

/** A suppression as our API lists it: with the message behind it, when the service or the message index knows it. */
export const suppressionRow = suppression.extend({ linkedMessageId: z.string().nullable() });
export type SuppressionRow = z.infer<typeof suppressionRow>;
export const suppressionRowPage = page(suppressionRow);

/**
 * Suppressions in bulk: a pasted list or a CSV file (`email` and optional `reason`), checked
 * like a batch's file and added by a background job. Its bounds (bytes, lines, line length)
 * are checked here, so the route refuses an oversized list before any of it is parsed.
 */
const suppressionListText = z
  .string({ error: "is required: upload a CSV file or paste addresses" })
  .min(1, { error: "is empty: upload a CSV file or paste addresses" })
  .max(MAX_SUPPRESSION_LIST_CHARS, { error: `is larger than ${MAX_SUPPRESSION_LIST_CHARS / 1024 / 1024} MB` })
  .superRefine((text, ctx) => {
    // One line more than the rows: a header line naming the columns.
    const issue = lineLimitIssue(text, { maxLines: MAX_SUPPRESSION_ROWS + 1, maxLineChars: MAX_SUPPRESSION_LINE_CHARS });
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  });

export const bulkSuppressionCheckRequest = z.object({
  csv: suppressionListText,
  fileName: z.string().max(255).optional(),
  /** The reason of every line that names none. */
  reason: suppressionReason.default("manual"),
});
export type BulkSuppressionCheckRequest = z.input<typeof bulkSuppressionCheckRequest>;

export const bulkSuppressionRequest = bulkSuppressionCheckRequest.extend({
  /** The number of addresses the user confirmed adding; the job is refused when the list now says otherwise. */
  confirmCount: z.number({ error: "confirm the number of addresses" }).int().nonnegative(),
});
export type BulkSuppressionRequest = z.input<typeof bulkSuppressionRequest>;
