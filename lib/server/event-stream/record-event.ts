import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { canonicalEventType } from "@/lib/messages/vocabulary";
import { db } from "@/lib/server/db";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { foldStatus } from "@/lib/server/messages/fold";
import { replaceInboundPlaceholder } from "@/lib/server/messages/inbound-placeholder";
import { recipientRows } from "@/lib/server/messages/recipients";
import { enqueueReread } from "@/lib/server/rereads/queue";
import { erasureOf } from "@/lib/server/retention/tombstones";
import type { DeliveredEvent } from "./payload";

/**
 * One event of the stream into the index, in one transaction: the event row (taken once per
 * project and key: a redelivery changes nothing), a provisional picture of the message (its
 * status folded from the event; addresses and subject only where the payload had them and
 * the index did not), and a re-read of the message from the service, coalesced with any
 * other event for it. The re-read's answer replaces the provisional picture.
 *
 * True when the event was new.
 */
export async function recordEvent(projectId: string, key: string, e: DeliveredEvent, rereadInMs: number): Promise<boolean> {
  const d = await db();
  const at = e.occurredAt ?? new Date();
  return d.transaction(async (tx) => {
    const [event] = await tx
      .insert(indexedEvents)
      .values({ messageId: e.messageId, projectId, type: e.type, occurredAt: at, data: e.details, webhookId: key, origin: "stream" })
      .onConflictDoNothing({ target: [indexedEvents.projectId, indexedEvents.webhookId] })
      .returning({ seq: indexedEvents.seq });
    if (!event) return false;

    const direction = e.direction ?? (canonicalEventType(e.type).startsWith("inbound_") ? "inbound" : "outbound");
    const folded = foldStatus("queued", e.type);
    const [created] = await tx
      .insert(indexedMessages)
      .values({
        id: e.messageId,
        projectId,
        direction,
        // Inbound mail the dashboard hears of is received, whatever the event's word.
        status: direction === "inbound" && folded === "queued" ? "received" : folded,
        from: e.from ?? "",
        to: e.to ?? [],
        subject: e.subject,
        html: e.html,
        text: e.text,
        source: "webhook",
        createdAt: at,
        lastEventAt: at,
      })
      .onConflictDoNothing({ target: indexedMessages.id })
      .returning({ id: indexedMessages.id });
    if (created && (await erasureOf(tx, projectId, e.messageId))?.deleted) {
      // Erased on a recipient's request (lib/server/retention/erase.ts): the service still
      // announces it, the index does not take it back. Checked only for a message new to the
      // index, which an erased one always is, so other events pay nothing.
      await tx.delete(indexedMessages).where(eq(indexedMessages.id, e.messageId));
      await tx.delete(indexedEvents).where(eq(indexedEvents.seq, event.seq));
      return false;
    }
    if (created) {
      const rows = recipientRows({ id: e.messageId, projectId, from: e.from ?? "", to: e.to ?? [], createdAt: at });
      if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
      if (direction === "inbound") await replaceInboundPlaceholder(tx, projectId, { id: e.messageId, from: e.from, subject: e.subject });
    } else {
      // Row lock: two events of one message folding at once must not lose either.
      const [current] = await tx
        .select({ status: indexedMessages.status, from: indexedMessages.from, to: indexedMessages.to })
        .from(indexedMessages)
        .where(and(eq(indexedMessages.id, e.messageId), eq(indexedMessages.projectId, projectId)))
        .for("update");
      // An id another project holds: the event is kept, the other project's message is not touched.
      if (current) {
        const iso = at.toISOString();
        await tx
          .update(indexedMessages)
          .set({
            status: foldStatus(current.status, e.type),
            from: e.from ? sql`case when ${indexedMessages.from} = '' then ${e.from} else ${indexedMessages.from} end` : undefined,
            to: e.to ? sql`case when jsonb_array_length(${indexedMessages.to}) = 0 then ${JSON.stringify(e.to)}::jsonb else ${indexedMessages.to} end` : undefined,
            subject: e.subject !== null ? sql`coalesce(${indexedMessages.subject}, ${e.subject})` : undefined,
            html: e.html !== null ? sql`coalesce(${indexedMessages.html}, ${e.html})` : undefined,
            text: e.text !== null ? sql`coalesce(${indexedMessages.text}, ${e.text})` : undefined,
            createdAt: e.occurredAt ? sql`least(${indexedMessages.createdAt}, ${iso}::timestamptz)` : undefined,
            lastEventAt: e.occurredAt ? sql`greatest(${indexedMessages.lastEventAt}, ${iso}::timestamptz)` : sql`greatest(${indexedMessages.lastEventAt}, now())`,
            updatedAt: new Date(),
          })
          .where(and(eq(indexedMessages.id, e.messageId), eq(indexedMessages.projectId, projectId)));
        // Addresses are indexed once; a row that had none yet gets the payload's.
        if ((e.to && current.to.length === 0) || (e.from && current.from === "")) {
          const rows = recipientRows({ id: e.messageId, projectId, from: e.from ?? "", to: e.to ?? [], createdAt: at });
          if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
        }
      }
    }
    await enqueueReread(tx, projectId, e.messageId, "event", rereadInMs);
    return true;
  });
}
