import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { erasedMessages } from "@/lib/server/db/schema/retention";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { holdRefresherLock } from "@/lib/server/insight/refresh";
import { bareAddress } from "@/lib/messages/bare-address";

/**
 * The messages of one slice where the address is a party (found through indexed_recipients):
 * removed whole when nobody else received them, otherwise stripped of the address (lists,
 * recipient rows, the events that mention it). Tombstones keep them that way when the service
 * brings them back (lib/server/message-index/tombstones.ts). Their subjects and bodies are left to
 * the scrub that follows (./scrub.ts), which redacts the address in every kept message.
 */
type Found = { id: string; direction: string; from: string; to: string[]; cc: string[]; bcc: string[] };

export async function eraseMessages(tx: Db, projectId: string, ids: string[], address: string, hash: string): Promise<{ deleted: string[]; stripped: number }> {
  // The refresher's lock first, as every writer of insight_facts holds it: a refresh batch that
  // read these messages before the strip and wrote their facts after it put the address back
  // into insight_facts until the next pass (seen once in CI: two dashboards on one Postgres).
  await holdRefresherLock(tx);
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
