import "server-only";
import { isAppError } from "@/lib/errors";
import type { AddSuppressionRequest } from "@/lib/schemas/suppressions";
import type { BatchJobRow, BatchRowRow } from "@/lib/server/db/schema/batches";
import { service } from "@/lib/server/service";
import type { Outcome } from "./outcome";
import { suppressedAddresses } from "./suppressed";

type Row = Pick<BatchRowRow, "row" | "email" | "data">;

/**
 * A chunk of a bulk suppression job, one POST /v1/suppressions per row. The interface takes
 * no Idempotency-Key on that POST, so a repeat is made harmless before it is sent: a chunk
 * claimed again (its first claim died or failed before its outcome was written, so some of
 * its addresses may already be added) first reads the project's list, and the rows found
 * there are settled as added without asking the service again. A first claim asks nothing
 * extra. The service's 409, if it has one for an address it holds, says the same.
 */
export async function addSuppressionRows(job: Pick<BatchJobRow, "projectExternalId" | "content">, rows: Row[], attempt: number): Promise<Outcome[]> {
  const present = attempt > 1 && rows.length ? await suppressedAddresses(job.projectExternalId) : null;
  const fallback = (job.content as { reason?: string }).reason ?? "manual";
  const outcomes: Outcome[] = [];
  for (const r of rows) {
    if (present?.has(r.email.toLowerCase())) {
      outcomes.push({ row: r.row, status: "sent", messageId: null, error: null });
      continue;
    }
    // The check let through only the interface's reasons (bulk-suppressions.ts).
    outcomes.push(await addOne(job.projectExternalId, r, r.data?.reason || fallback));
  }
  return outcomes;
}

async function addOne(project: string, r: Row, reason: string): Promise<Outcome> {
  try {
    await service.suppressions.add(project, { email: r.email, reason: reason as AddSuppressionRequest["reason"] });
    return { row: r.row, status: "sent", messageId: null, error: null };
  } catch (e) {
    if (isAppError(e) && e.status === 409) return { row: r.row, status: "suppressed", messageId: null, error: { message: "email: the address is already suppressed", code: "already_suppressed", field: "email" } };
    // Refused for this row alone: reported, the job goes on. Anything transient fails the chunk, which is claimed again.
    if (isAppError(e) && e.status < 500 && e.status !== 429) return { row: r.row, status: "failed", messageId: null, error: { message: e.message, code: e.code, field: e.param } };
    throw e;
  }
}
