import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import { eraseRecipientRequest, type ErasureResult } from "@/lib/schemas/erasure";
import { recipientParam } from "@/lib/schemas/messages-index";
import { AppError } from "@/lib/errors";
import type { Actor, Project } from "@/lib/server/access";
import { recordAudit } from "@/lib/server/audit";
import { db, type Db } from "@/lib/server/db";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { auditLog } from "@/lib/server/db/schema/core";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { erasedMessages } from "@/lib/server/db/schema/retention";
import { templateSamples } from "@/lib/server/db/schema/template-samples";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { deleteLinkPeopleSql, holdRefresherLock } from "@/lib/server/insight/refresh";
import { invalidateMessage } from "@/lib/server/messages/read";
import { bareAddress } from "@/lib/server/messages/recipients";
import { addressHash } from "./address-hash";

/**
 * Erases one recipient's data from the dashboard's own records in one project, for a person
 * who asked for it. The service's data is not touched: the interface has no operation for it.
 *
 * - Messages of the index where the address is the other party (a recipient of outbound mail,
 *   the sender or a recipient of inbound mail): removed whole, with their addresses, events and
 *   queued re-reads, when nobody else received them; otherwise only the address goes (from
 *   to/cc/bcc, the recipient rows, and the events that mention it), since the subject and
 *   body were the same for the other recipients. Outbound mail *from* the address is the
 *   project's own sender identity and stays.
 * - The contacts index's records of the address.
 * - Batch rows with the address: it is replaced by its keyed hash, the name and merge data
 *   are cleared, and a row not sent yet is not sent (status invalid, code `erased`).
 * - Template sample sets whose data mentions the address.
 * - Insight: the messages' facts are recomputed (a deleted message leaves the rollups), the
 *   address leaves the facts at once and the link clickers' list.
 * - Earlier audit entries of the project: the address replaced by its keyed hash.
 *
 * Tombstones keep the erased messages out of the index when the service announces or returns
 * them again (lib/server/retention/tombstones.ts). The audit entry of the erasure names the
 * address only by its keyed hash.
 */
const SLICE = 500;

type Found = { id: string; direction: string; from: string; to: string[]; cc: string[]; bcc: string[] };

export async function eraseRecipient(project: Project, actor: Actor, rawEmail: string, body: unknown): Promise<ErasureResult> {
  const { email } = recipientParam.parse({ email: rawEmail });
  const { confirmEmail } = eraseRecipientRequest.parse(body);
  const address = email.toLowerCase();
  if (confirmEmail.toLowerCase() !== address) {
    throw new AppError(400, "validation_error", "confirmEmail: does not match the address being erased", "confirmEmail");
  }
  const hash = addressHash(address);
  const audit = { actor, action: "recipient.erase", project: project.externalId, target: hash };
  try {
    const result = await erase(project, address, hash);
    await recordAudit({ ...audit, outcome: "success", detail: { ...result } });
    return result;
  } catch (e) {
    await recordAudit({ ...audit, outcome: "failure", detail: { error: e instanceof AppError ? e.code : "internal_error" } }).catch(() => {});
    throw e;
  }
}

async function erase(project: Project, address: string, hash: string): Promise<ErasureResult> {
  const d = await db();
  const result: ErasureResult = { messagesDeleted: 0, messagesStripped: 0, contacts: 0, batchRows: 0, templateSamples: 0, auditEntries: 0 };

  const ids = await d
    .selectDistinct({ id: indexedRecipients.messageId })
    .from(indexedRecipients)
    .where(and(eq(indexedRecipients.projectId, project.id), eq(indexedRecipients.email, address)));
  for (let i = 0; i < ids.length; i += SLICE) {
    const slice = ids.slice(i, i + SLICE).map((r) => r.id);
    const { deleted, stripped } = await d.transaction((tx) => eraseMessages(tx, project.id, slice, address, hash));
    result.messagesDeleted += deleted.length;
    result.messagesStripped += stripped;
    for (const id of deleted) invalidateMessage(project.id, id);
  }

  // Who clicked which link is kept per address, not per message: the address's rows go.
  await d.transaction(async (tx) => {
    await holdRefresherLock(tx);
    await tx.execute(deleteLinkPeopleSql(sql`delete from insight_link_recipients where project_id = ${project.id} and recipient = ${address} returning project_id, link, last_at`));
  });

  result.contacts = (
    await d.delete(contactsIndex).where(and(eq(contactsIndex.projectId, project.id), eq(contactsIndex.email, address))).returning({ id: contactsIndex.id })
  ).length;

  // No index on the address: an erasure is rare, and 100,000-row jobs should not pay for one.
  result.batchRows = rowsOf(
    await d.execute(sql`
      update batch_rows r
         set email = ${hash}, name = null, data = '{}'::jsonb,
             status = case when r.status = 'pending' then 'invalid' else r.status end,
             error_code = case when r.status = 'pending' then 'erased' else r.error_code end,
             error_field = case when r.status = 'pending' then 'email' else r.error_field end,
             error_message = case when r.status = 'pending' then 'email: erased on request before it was sent' else r.error_message end
        from batch_jobs j
       where j.id = r.job_id and j.project_id = ${project.id} and lower(r.email) = ${address}
      returning 1`),
  ).length;

  result.templateSamples = (
    await d
      .delete(templateSamples)
      .where(and(eq(templateSamples.projectId, project.id), sql`position(${address} in lower(${templateSamples.data}::text)) > 0`))
      .returning({ id: templateSamples.id })
  ).length;

  result.auditEntries = await scrubAudit(d, project.externalId, address, hash);
  return result;
}

async function eraseMessages(tx: Db, projectId: string, ids: string[], address: string, hash: string): Promise<{ deleted: string[]; stripped: number }> {
  const rows: Found[] = await tx
    .select({ id: indexedMessages.id, direction: indexedMessages.direction, from: indexedMessages.from, to: indexedMessages.to, cc: indexedMessages.cc, bcc: indexedMessages.bcc })
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, projectId), inArray(indexedMessages.id, ids)))
    .for("update");
  const isErased = (entry: string) => bareAddress(entry) === address;
  const remove: string[] = [];
  const strip: Found[] = [];
  for (const m of rows) {
    const sender = isErased(m.from);
    const received = [...m.to, ...m.cc, ...m.bcc].some(isErased);
    if (m.direction === "outbound" && !received) continue; // the project's own sending address
    const others = [...m.to, ...m.cc, ...m.bcc].filter((e) => !isErased(e) && bareAddress(e) !== "");
    const wholeMessage = m.direction === "inbound" ? sender || others.length === 0 : others.length === 0;
    if (wholeMessage) remove.push(m.id);
    else strip.push(m);
  }
  if (remove.length) {
    await tx.delete(indexedEvents).where(and(eq(indexedEvents.projectId, projectId), inArray(indexedEvents.messageId, remove)));
    await tx.delete(messageRereads).where(and(eq(messageRereads.projectId, projectId), inArray(messageRereads.messageId, remove)));
    await tx.delete(indexedMessages).where(inArray(indexedMessages.id, remove));
  }
  for (const m of strip) {
    await tx
      .update(indexedMessages)
      .set({ to: m.to.filter((e) => !isErased(e)), cc: m.cc.filter((e) => !isErased(e)), bcc: m.bcc.filter((e) => !isErased(e)), updatedAt: new Date() })
      .where(eq(indexedMessages.id, m.id));
  }
  if (strip.length) {
    const stripIds = strip.map((m) => m.id);
    await tx.delete(indexedRecipients).where(and(inArray(indexedRecipients.messageId, stripIds), eq(indexedRecipients.email, address)));
    await tx
      .delete(indexedEvents)
      .where(and(eq(indexedEvents.projectId, projectId), inArray(indexedEvents.messageId, stripIds), sql`position(${address} in lower(${indexedEvents.data}::text)) > 0`));
  }
  // Insight: the refresher recomputes these messages' facts from what is left (a deleted one
  // leaves the rollups), and the address does not wait for it in the facts it keeps until then.
  const touched = [...remove, ...strip.map((m) => m.id)];
  if (touched.length) {
    await markInsightDirty(tx, projectId, touched);
    await tx.execute(sql`
      update insight_facts set recipient = '' where project_id = ${projectId} and recipient = ${address}
         and message_id in (select jsonb_array_elements_text(${JSON.stringify(touched)}::jsonb))`);
  }
  const tombstones = [...remove.map((id) => ({ id, deleted: true })), ...strip.map((m) => ({ id: m.id, deleted: false }))];
  if (tombstones.length) {
    await tx
      .insert(erasedMessages)
      .values(tombstones.map((t) => ({ projectId, messageId: t.id, addressHash: hash, deleted: t.deleted })))
      .onConflictDoUpdate({ target: [erasedMessages.projectId, erasedMessages.messageId, erasedMessages.addressHash], set: { deleted: sql`excluded.deleted`, erasedAt: sql`now()` } });
  }
  return { deleted: remove, stripped: strip.length };
}

/** The address in earlier audit entries of the project (target or detail) becomes its hash. */
async function scrubAudit(d: Db, project: string, address: string, hash: string): Promise<number> {
  const entries = await d
    .select({ id: auditLog.id, target: auditLog.target, detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.project, project),
        sql`(position(${address} in lower(coalesce(${auditLog.target}, ''))) > 0 or position(${address} in lower(${auditLog.detail}::text)) > 0)`,
      ),
    );
  const pattern = new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(pattern, hash);
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    return value;
  };
  for (const e of entries) {
    await d
      .update(auditLog)
      .set({ target: e.target === null ? null : (scrub(e.target) as string), detail: scrub(e.detail) as Record<string, unknown> })
      .where(eq(auditLog.id, e.id));
  }
  return entries.length;
}
