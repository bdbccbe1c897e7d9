import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { attachments, messages, type AddressRow } from "../db/schema";
import { insertEvents, type MessageRow } from "./events";
import { newId } from "./ids";
import { domainOf } from "./messages";

export type InboundMail = {
  projectId: string;
  from: AddressRow;
  to: AddressRow[];
  cc?: AddressRow[];
  replyTo?: AddressRow[];
  subject: string | null;
  html?: string | null;
  text?: string | null;
  headers?: Record<string, string>;
  rfcMessageId?: string | null;
  inReplyTo?: string | null;
  references?: string[];
  attachments?: { filename: string; contentType: string; content: Buffer }[];
  source: "simulate" | "smtp";
};

type Writer = Pick<Db, "insert" | "select" | "update" | "execute">;

/** The thread of the message this mail answers (In-Reply-To, else the last known of References). */
async function threadOf(db: Writer, projectId: string, mail: InboundMail): Promise<string | null> {
  const candidates = [mail.inReplyTo, ...(mail.references ?? []).slice().reverse()].filter((v): v is string => !!v);
  if (!candidates.length) return null;
  const rows = await db.select({ rfc: messages.rfcMessageId, threadId: messages.threadId }).from(messages)
    .where(and(eq(messages.projectId, projectId), inArray(messages.rfcMessageId, candidates)));
  for (const id of candidates) {
    const hit = rows.find((r) => r.rfc === id);
    if (hit) return hit.threadId;
  }
  return null;
}

function baseRow(mail: InboundMail, id: string, status: string): MessageRow {
  const now = new Date();
  return {
    id,
    projectId: mail.projectId,
    direction: "inbound",
    status,
    from: mail.from.email,
    fromName: mail.from.name || null,
    to: mail.to,
    cc: mail.cc ?? [],
    bcc: [],
    replyTo: mail.replyTo ?? [],
    subject: mail.subject,
    html: mail.html ?? null,
    text: mail.text ?? null,
    headers: mail.headers ?? {},
    tags: [],
    templateId: null,
    data: null,
    scheduledAt: null,
    rfcMessageId: mail.rfcMessageId || `<${id}@${domainOf(mail.from.email)}>`,
    inReplyTo: mail.inReplyTo ?? null,
    references: mail.references ?? [],
    threadId: id,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Stores received mail (status `received`, event `inbound_received`) with its attachments,
 * in the thread it answers when it names one of the project's messages, and fans the event
 * out to webhooks like any other. Call inside a transaction.
 */
export async function storeInbound(tx: Writer, mail: InboundMail): Promise<MessageRow> {
  const id = newId("msg");
  const row = { ...baseRow(mail, id, "received"), threadId: (await threadOf(tx, mail.projectId, mail)) ?? id };
  await tx.insert(messages).values(row);
  const files = (mail.attachments ?? []).map((a, i) => ({
    id: newId("att", row.createdAt.getTime() + i), messageId: id, filename: a.filename, contentType: a.contentType, size: a.content.length, content: a.content,
  }));
  if (files.length) await tx.insert(attachments).values(files);
  await insertEvents(tx, [{
    message: row,
    type: "inbound_received",
    data: { source: mail.source, recipients: mail.to.map((a) => a.email), attachments: files.length },
  }]);
  return row;
}

/**
 * Mail refused at RCPT for a domain the project has but does not receive on: kept as an
 * inbound message with status `rejected` and an `inbound_rejected` event, so the project
 * sees what it missed (webhooks included).
 */
export async function storeInboundRejection(tx: Writer, mail: InboundMail, reason: string, diagnostic: string): Promise<MessageRow> {
  const row = baseRow(mail, newId("msg"), "rejected");
  await tx.insert(messages).values(row);
  await insertEvents(tx, [{ message: row, type: "inbound_rejected", data: { reason, diagnostic, recipients: mail.to.map((a) => a.email) } }]);
  return row;
}
