import "server-only";
import { BATCH_ROW_STATUSES } from "@/lib/schemas/words";
import type { BatchRowStatus, FirstRows, JobKind } from "@/lib/schemas/batch";
import type { Project } from "@/lib/server/gate/access";
import { jobRows } from "./jobs";

/**
 * The job screen's first page of rows, read while the page renders (the same filter and
 * cursor the screen reads from the URL), so the screen does not ask for them — and load the
 * answer's schema — the moment it appears. Undefined when they cannot be read: the screen
 * then asks as usual.
 */
export async function firstRows(project: Project, jobId: string, kind: JobKind, search: Record<string, string | string[] | undefined>): Promise<FirstRows | undefined> {
  const status = (BATCH_ROW_STATUSES as readonly string[]).includes(String(search.status)) ? String(search.status) : null;
  const after = Number(search.after) || null;
  try {
    const page = await jobRows(project, jobId, { statuses: status ? [status as BatchRowStatus] : undefined, after: after ?? undefined, limit: 100 }, kind);
    return { status, after, page };
  } catch {
    return undefined;
  }
}
