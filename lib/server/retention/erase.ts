import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { EraseRecipientRequest, ErasureResult } from "@/lib/schemas/erasure";
import { AppError } from "@/lib/errors";
import type { Actor, Project } from "@/lib/server/gate/access";
import { recordAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { indexedRecipients } from "@/lib/server/db/schema/messages";
import { erasedAddresses } from "@/lib/server/db/schema/retention";
import { savedViews } from "@/lib/server/db/schema/saved-views";
import { templateSamples } from "@/lib/server/db/schema/template-samples";
import { webhookDeliveries } from "@/lib/server/db/schema/webhook-deliveries";
import { deleteLinkPeopleSql, holdRefresherLock } from "@/lib/server/insight/refresh";
import { dropTagPairs } from "@/lib/server/insight/tag-refresh";
import { invalidateMessage } from "@/lib/server/message-index/read";
import { addressAnchors } from "@/lib/server/redaction/address-matcher";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { eraseMessages } from "./erase-messages";
import { holdErasureLock, redactorForAddresses } from "@/lib/server/redaction/redactor";
import { sealAddress } from "@/lib/server/redaction/sealed-address";
import { mentions, scrubAudit, scrubProject } from "./scrub";

/**
 * Erases one recipient's data from the dashboard's own records in one project, for a person
 * who asked for it. The service's data is not touched: the interface has no operation for it.
 *
 * First the address is recorded as erased (sealed, and by its keyed hash), under the lock every
 * writer holds shared while it writes (lib/server/redaction/redactor.ts): from then on nothing written in the
 * project holds it, and whatever was written before is found by the passes that follow.
 *
 * - Messages of the index where the address is the other party (a recipient of outbound mail,
 *   the sender or a recipient of inbound mail): removed whole, with their addresses, events and
 *   queued re-reads, when nobody else received them; otherwise the address goes from to/cc/bcc,
 *   the recipient rows and the events that mention it (./erase-messages.ts).
 * - Everywhere else it is still written — subjects, bodies, headers, tags and merge data of kept
 *   messages (the project's own mail *from* the address included), event details, other batch
 *   rows, batch jobs' file names and shared content, other contacts — written plainly or
 *   escaped (`&#64;`, `%40`, `=40`): replaced by its keyed hash (./scrub.ts).
 * - The contacts index's records of the address.
 * - Batch rows with the address: it is replaced by its keyed hash, the name and merge data
 *   are cleared, and a row not sent yet (or failed, so never retried) is not sent (status
 *   invalid, code `erased`).
 * - Template sample sets whose data mentions the address.
 * - Insight: the messages' facts are recomputed (a deleted message leaves the rollups), the
 *   address leaves the facts at once and the link clickers' list.
 * - Earlier audit entries of the project: the address replaced by its keyed hash.
 *
 * Tombstones keep the erased messages out of the index when the service announces or returns
 * them again (lib/server/message-index/tombstones.ts). The audit entry of the erasure names the
 * address only by its keyed hash.
 */
const SLICE = 500;

/** `email` is the address of the path and `body` the request, both already read with their schemas by the route. */
export async function eraseRecipient(project: Project, actor: Actor, email: string, { confirmEmail }: EraseRecipientRequest): Promise<ErasureResult> {
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
  const result: ErasureResult = { messagesDeleted: 0, messagesStripped: 0, redacted: 0, contacts: 0, batchRows: 0, templateSamples: 0, savedViews: 0, auditEntries: 0 };

  // The tombstone first: once it is committed, no writer holds the lock from before it, and
  // every later one reads it. An erasure repeated finds the same row.
  await d.transaction(async (tx) => {
    await holdErasureLock(tx, project.id);
    await tx.insert(erasedAddresses).values({ projectId: project.id, addressHash: hash, sealed: sealAddress(address) }).onConflictDoNothing();
  });
  const redact = redactorForAddresses([{ address, marker: hash }]);
  const anchors = addressAnchors(address);

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
             status = case when r.status in ('pending', 'failed') then 'invalid' else r.status end,
             error_code = case when r.status in ('pending', 'failed') then 'erased' else r.error_code end,
             error_field = case when r.status in ('pending', 'failed') then 'email' else r.error_field end,
             error_message = case when r.status in ('pending', 'failed') then 'email: erased on request before it was sent' else r.error_message end
        from batch_jobs j
       where j.id = r.job_id and j.project_id = ${project.id} and lower(r.email) = ${address}
      returning 1`),
  ).length;

  // A sample set is someone's data: one that names the address, in any form, goes whole.
  const samples = await d
    .select({ id: templateSamples.id, data: templateSamples.data })
    .from(templateSamples)
    .where(and(eq(templateSamples.projectId, project.id), mentions(sql`${templateSamples.data}::text`, anchors)));
  const naming = samples.filter((s) => JSON.stringify(redact.json(s.data)) !== JSON.stringify(s.data)).map((s) => s.id);
  if (naming.length) await d.delete(templateSamples).where(and(eq(templateSamples.projectId, project.id), inArray(templateSamples.id, naming)));
  result.templateSamples = naming.length;

  // A saved view whose name or search names the address (`to:ada@…`, URL-encoded in its
  // text) goes whole too: a search is someone's note, not a record to keep redacted.
  const views = await d
    .select({ id: savedViews.id, name: savedViews.name, state: savedViews.state })
    .from(savedViews)
    .where(and(eq(savedViews.projectId, project.id), mentions(sql`${savedViews.name} || ' ' || ${savedViews.state}`, anchors)));
  const namingViews = views
    .filter((v) => [v.name, ...new URLSearchParams(v.state).values()].some((text) => redact.text(text) !== text))
    .map((v) => v.id);
  if (namingViews.length) await d.delete(savedViews).where(and(eq(savedViews.projectId, project.id), inArray(savedViews.id, namingViews)));
  result.savedViews = namingViews.length;

  // The delivery log (lib/server/event-stream/delivery-log.ts) masks addresses as it writes, but
  // not one escaped (`%40`) or in a header's words: a delivery that names the address goes whole.
  const w = webhookDeliveries;
  const logged = await d
    .select({ id: w.id, texts: sql<string[]>`array[coalesce(${w.body}, ''), coalesce(${w.webhookId}, ''), coalesce(${w.messageId}, ''), coalesce(${w.reason}, '')]` })
    .from(w)
    .where(and(eq(w.projectId, project.id), mentions(sql`concat_ws(' ', ${w.body}, ${w.webhookId}, ${w.messageId}, ${w.reason})`, anchors)));
  const namingDeliveries = logged.filter((r) => r.texts.some((t) => redact.text(t) !== t)).map((r) => r.id);
  if (namingDeliveries.length) await d.delete(w).where(and(eq(w.projectId, project.id), inArray(w.id, namingDeliveries)));

  result.redacted = await scrubProject(d, project.id, address, redact);

  // A tag naming the address (`customer=ada@…`) leaves the Tags figures whole, after the scrub
  // redacted the messages' tags, so the refresher cannot count it again. Found in the hourly
  // rollup, which holds every pair with rows (a pair's place in insight_tag_keys may have lapsed).
  const tagPairs = rowsOf<{ name: string; value: string }>(
    await d.execute(sql`select distinct name, value from insight_tag_hourly where project_id = ${project.id} and ${mentions(sql`(name || '=' || value)`, anchors)}`),
  ).filter((p) => redact.text(`${p.name}=${p.value}`) !== `${p.name}=${p.value}`);
  if (tagPairs.length) {
    await d.transaction(async (tx) => {
      await holdRefresherLock(tx);
      await dropTagPairs(tx, project.id, tagPairs);
    });
  }
  result.auditEntries = await scrubAudit(d, project.externalId, anchors, redact);
  return result;
}
