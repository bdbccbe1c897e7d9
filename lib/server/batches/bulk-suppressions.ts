import "server-only";
import { AppError } from "@/lib/errors";
import { suppressionListMapping } from "@/lib/batch/suppression-list";
import type { CheckResult } from "@/lib/schemas/batch";
import { MAX_SUPPRESSION_ROWS } from "@/lib/schemas/limits";
import { SUPPRESSION_REASONS, type bulkSuppressionCheckRequest, type bulkSuppressionRequest } from "@/lib/schemas/suppressions";
import type { z } from "zod";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { checkFileInSlices, type CheckedRow, type CheckedRowSink, type RowCheck } from "./check";
import { oneFileAtATime } from "./file-lock";
import { runJob } from "./runner";
import { storeCheckedJob } from "./store";

/**
 * Suppressions in bulk: the list is checked as a batch's file is (lib/server/batches/check.ts,
 * the same parser, the line numbers of the file, repeats folded onto their first line,
 * addresses the service already suppresses noted from its list), and added by a job of the
 * batch runner, kind `suppressions` (./suppression-rows.ts).
 */

const REASONS = new Set<string>(SUPPRESSION_REASONS);
const reasonCheck: RowCheck = ({ data }) =>
  data.reason && !REASONS.has(data.reason) ? { field: "reason", message: `must be one of: ${SUPPRESSION_REASONS.join(", ")}` } : null;

/** Lines listed as problems by the screen's check (the totals count them all). */
const MAX_PROBLEMS = 1_000;

/** A repeated line names the line it repeats, whose address is added once (the batch check's words speak of rows and of a message sent). */
function folded(r: CheckedRow): CheckedRow {
  if (r.status !== "duplicate" || !r.error) return r;
  const [field, repeats] = r.error.message.split(": ");
  return { ...r, error: { ...r.error, message: `${field}: ${repeats.replace("row", "line")}: the address is added once, from that line` } };
}

function checkList(project: Project, csv: string, sink: CheckedRowSink) {
  const mapping = suppressionListMapping(csv);
  if (!mapping) throw new AppError(400, "validation_error", "csv: no column holds email addresses; name the column `email`", "csv");
  return checkFileInSlices(project.externalId, csv, mapping, null, (rows) => sink(rows.map(folded)), { maxRows: MAX_SUPPRESSION_ROWS, rowCheck: reasonCheck });
}

/** The screen's check: the totals and the lines that will not be added. Nothing is stored or added. */
export async function checkSuppressionList(project: Project, actor: Pick<Actor, "id">, input: z.output<typeof bulkSuppressionCheckRequest>): Promise<CheckResult> {
  const problems: CheckedRow[] = [];
  const summary = await oneFileAtATime(actor.id, () =>
    checkList(project, input.csv, (rows) => {
      for (const r of rows) if (r.status !== "pending" && problems.length < MAX_PROBLEMS) problems.push(r);
    }),
  );
  return { summary, problems };
}

/** Checks the list again, stores it and starts adding; refused when it now adds a different number than the user confirmed. */
export async function createSuppressionJob(project: Project, actor: Actor, input: z.output<typeof bulkSuppressionRequest>, opts: { start?: boolean } = {}): Promise<{ id: string }> {
  const id = crypto.randomUUID().replace(/-/g, "");
  const job = { id, projectId: project.id, projectExternalId: project.externalId, kind: "suppressions" as const, fileName: input.fileName ?? null, content: { reason: input.reason }, totalRows: 0, createdBy: actor.id, createdByEmail: actor.email };
  await oneFileAtATime(actor.id, () =>
    storeCheckedJob(
      job,
      (sink) => checkList(project, input.csv, sink),
      async (summary, activate) => {
        if (summary.toSend !== input.confirmCount) {
          throw new AppError(409, "count_changed", `confirmCount: the list now adds ${summary.toSend} addresses, not ${input.confirmCount}; check it again`, "confirmCount");
        }
        if (summary.toSend === 0) throw new AppError(400, "validation_error", "csv: no address in the list can be added", "csv");
        const detail = { total: summary.total, toAdd: summary.toSend, alreadySuppressed: summary.suppressed, invalid: summary.invalid, repeated: summary.duplicate, reason: input.reason, fileName: input.fileName ?? null };
        await withAudit({ actor, action: "suppression.bulk_create", project: project.externalId, target: id, detail }, activate);
      },
    ),
  );
  if (opts.start !== false) void runJob(id);
  return { id };
}
