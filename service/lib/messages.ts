import { asc, eq, sql } from "drizzle-orm";
import type { Message } from "../../contract/wire";
import type { Db } from "../db/client";
import { messageEvents, messages } from "../db/schema";
import { formatAddress, type MessageRow } from "./events";

type EventRow = typeof messageEvents.$inferSelect;

/**
 * A message as retrieved (`message` in contract/wire/emails.ts). `from` carries the display
 * name (`Acme <hi@acme.test>`), recipients are bare addresses, as the best-known APIs do.
 */
export function toMessage(row: MessageRow, events: Pick<EventRow, "type" | "createdAt" | "data">[]): Message {
  return {
    id: row.id,
    from: formatAddress(row.from, row.fromName),
    to: row.to.map((a) => a.email),
    cc: row.cc.map((a) => a.email),
    bcc: row.bcc.map((a) => a.email),
    replyTo: row.replyTo.map((a) => a.email),
    subject: row.subject,
    status: row.status,
    direction: row.direction === "inbound" ? "inbound" : "outbound",
    createdAt: row.createdAt.toISOString(),
    html: row.html,
    text: row.text,
    headers: row.headers,
    tags: row.tags,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    inReplyTo: row.inReplyTo,
    threadId: row.threadId,
    templateId: row.templateId,
    events: events.map((e) => ({ type: e.type, createdAt: e.createdAt.toISOString(), data: e.data })),
  };
}

export async function findMessage(db: Pick<Db, "select">, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

export async function eventsOf(db: Pick<Db, "select">, messageId: string): Promise<EventRow[]> {
  return db.select().from(messageEvents).where(eq(messageEvents.messageId, messageId)).orderBy(asc(messageEvents.id));
}

type EventJson = { type: string; createdAt: string; data: Record<string, unknown> };

/**
 * The message and its events in one statement, so they come from one snapshot: a status
 * never lags or leads the events beside it while the worker moves the message on. Its
 * project comes with it, so a GET checks access and answers with one read of the row.
 */
export async function loadMessage(db: Pick<Db, "select">, id: string): Promise<{ projectId: string; message: Message } | null> {
  const [row] = await db.select({
    message: messages,
    events: sql<EventJson[]>`coalesce((
      select json_agg(json_build_object('type', e.type, 'createdAt', e.created_at, 'data', e.data) order by e.id)
      from message_events e where e.message_id = "messages"."id"), '[]'::json)`,
  }).from(messages).where(eq(messages.id, id)).limit(1);
  if (!row) return null;
  const events = (typeof row.events === "string" ? JSON.parse(row.events) : row.events) as EventJson[];
  return {
    projectId: row.message.projectId,
    message: toMessage(row.message, events.map((e) => ({ ...e, createdAt: new Date(e.createdAt) }))),
  };
}

/** The domain part of an address, lower-cased. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/** A new RFC 5322 Message-ID on the sender's domain, so replies thread in any mail client. */
export const rfcMessageIdFor = (id: string, fromEmail: string) => `<${id}@${domainOf(fromEmail)}>`;
