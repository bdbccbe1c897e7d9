import "server-only";
import { isAppError } from "@/lib/errors";
import type { BatchJobRow, BatchRowRow } from "@/lib/server/db/schema/batches";
import { rememberContacts } from "@/lib/server/contacts/index-store";
import { service } from "@/lib/server/service";
import type { Outcome } from "./outcome";


/**
 * One row of a contact import. The interface has no idempotency for contacts, but the
 * service refuses a second contact for an address (409): a row re-run after a restart is
 * reported as already existing rather than created twice.
 */
export async function importContactRow(job: BatchJobRow, r: Pick<BatchRowRow, "row" | "email" | "name" | "data">): Promise<Outcome> {
  const [first, ...rest] = (r.name ?? "").split(/\s+/).filter(Boolean);
  const data = r.data ?? {};
  const body = {
    email: r.email,
    ...(data.firstName || first ? { firstName: data.firstName || first } : {}),
    ...(data.lastName || rest.length ? { lastName: data.lastName || rest.join(" ") } : {}),
    subscribed: (job.content as { subscribed?: boolean }).subscribed ?? true,
    metadata: Object.fromEntries(Object.entries(data).filter(([k]) => k !== "firstName" && k !== "lastName")),
  };
  try {
    const created = await service.contacts.create(job.projectExternalId, body);
    await rememberContacts(job.projectId, [created], "import");
    return { row: r.row, status: "sent", messageId: created.id, error: null };
  } catch (e) {
    if (isAppError(e) && e.status === 409) return { row: r.row, status: "duplicate", messageId: null, error: { message: e.message, code: e.code, field: e.param ?? "email" } };
    if (isAppError(e) && e.status < 500 && e.status !== 429) return { row: r.row, status: "failed", messageId: null, error: { message: e.message, code: e.code, field: e.param } };
    throw e;
  }
}
