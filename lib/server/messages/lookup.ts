import "server-only";
import { sql } from "drizzle-orm";
import type { Message } from "@/lib/schemas/emails";
import { db } from "@/lib/server/db";
import { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { recipientRows } from "./recipients";

type Extras = {
  source?: "lookup" | "dashboard";
  sentBy?: string | null;
  idempotencyKey?: string | null;
};

/**
 * A message the service returned, written into the index: added when the index did not know
 * it (source `lookup`), refreshed otherwise. The service is the truth for status and thread;
 * the body the dashboard recorded is kept when the service omits it.
 */
export async function indexServiceMessage(projectId: string, m: Message, extras: Extras = {}): Promise<void> {
  const createdAt = new Date(m.createdAt);
  const at = Number.isNaN(createdAt.getTime()) ? new Date() : createdAt;
  const lastEvent = m.events.map((e) => (e.createdAt ? Date.parse(e.createdAt) : NaN)).filter((t) => !Number.isNaN(t));
  const row: typeof indexedMessages.$inferInsert = {
    id: m.id,
    projectId,
    direction: m.direction,
    status: m.status,
    from: m.from,
    to: m.to,
    cc: m.cc ?? [],
    bcc: m.bcc ?? [],
    subject: m.subject,
    tags: m.tags ?? [],
    html: m.html ?? null,
    text: m.text ?? null,
    headers: m.headers ?? null,
    templateId: m.templateId ?? null,
    threadId: m.threadId ?? null,
    inReplyTo: m.inReplyTo ?? null,
    scheduledAt: m.scheduledAt ? new Date(m.scheduledAt) : null,
    idempotencyKey: extras.idempotencyKey ?? null,
    sentBy: extras.sentBy ?? null,
    source: extras.source ?? "lookup",
    createdAt: at,
    lastEventAt: lastEvent.length ? new Date(Math.max(...lastEvent)) : null,
  };
  const d = await db();
  await d.transaction(async (tx) => {
    await tx
      .insert(indexedMessages)
      .values(row)
      .onConflictDoUpdate({
        target: indexedMessages.id,
        set: {
          status: sql`excluded.status`,
          threadId: sql`coalesce(excluded.thread_id, ${indexedMessages.threadId})`,
          inReplyTo: sql`coalesce(excluded.in_reply_to, ${indexedMessages.inReplyTo})`,
          cc: sql`excluded.cc`,
          bcc: sql`excluded.bcc`,
          html: sql`coalesce(excluded.html, ${indexedMessages.html})`,
          text: sql`coalesce(excluded.text, ${indexedMessages.text})`,
          headers: sql`coalesce(excluded.headers, ${indexedMessages.headers})`,
          tags: sql`case when jsonb_array_length(excluded.tags) > 0 then excluded.tags else ${indexedMessages.tags} end`,
          templateId: sql`coalesce(excluded.template_id, ${indexedMessages.templateId})`,
          createdAt: sql`excluded.created_at`,
          lastEventAt: sql`greatest(excluded.last_event_at, ${indexedMessages.lastEventAt})`,
          sentBy: sql`coalesce(${indexedMessages.sentBy}, excluded.sent_by)`,
          idempotencyKey: sql`coalesce(${indexedMessages.idempotencyKey}, excluded.idempotency_key)`,
          updatedAt: new Date(),
        },
      });
    const rows = recipientRows({ id: m.id, projectId, from: m.from, to: m.to, cc: m.cc, bcc: m.bcc, createdAt: at });
    if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
  });
}
