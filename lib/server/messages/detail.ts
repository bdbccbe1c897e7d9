import "server-only";
import { isAppError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/emails";
import type { AttachmentView, MessageDetail } from "@/lib/schemas/messages-index";
import type { Project } from "@/lib/server/access";
import { db } from "@/lib/server/db";
import { indexedEvents, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { service } from "@/lib/server/service";
import { asc, eq } from "drizzle-orm";
import { readMessage } from "./read";
import { settledState } from "./settled";
import { bareAddress } from "./recipients";
import { conversationOf } from "./conversation";
import { findIndexedMessage } from "./search";
import { suppressionsOf } from "./suppression-of";

/** Outcomes whose explanation depends on the recipient being suppressed. */
const SUPPRESSION_STATUSES = new Set(["bounced", "complained", "rejected"]);

/**
 * The message screen's data. The service is asked first (it has the full timeline; through
 * the read cache, see ./read.ts); a message it returns is written into the index, so a pasted
 * id the index never saw is searchable afterwards. When the service no longer has it, the
 * index answers.
 */
export async function getMessageDetail(project: Project, id: string): Promise<MessageDetail> {
  const indexed = await findIndexedMessage(project.id, id);
  let message: Message;
  try {
    // The thread below is read from the index: a message it does not know yet, or knows
    // without its thread, is written there first.
    message = await readMessage(project, id, { indexFirst: !indexed?.threadId });
  } catch (e) {
    if (!(isAppError(e) && e.status === 404 && indexed)) throw e;
    message = await fromIndex(indexed);
  }
  const [attachments, thread, suppressions] = await Promise.all([
    attachmentsOf(project, id),
    conversationOf(project.id, id, message.threadId ?? null),
    SUPPRESSION_STATUSES.has(message.status) && message.direction === "outbound"
      ? suppressionsOf(project.externalId, message.to.map(bareAddress)).catch(() => [])
      : Promise.resolve([]),
  ]);
  return {
    message,
    ...settledState(message),
    source: indexed?.source ?? "lookup",
    sentBy: indexed?.sentBy ?? null,
    attachments: attachments.data,
    attachmentsError: attachments.error,
    thread: thread.length > 1 ? thread : [],
    suppressions,
  };
}

async function attachmentsOf(project: Project, id: string): Promise<{ data: AttachmentView[]; error: string | null }> {
  try {
    const list = await service.emails.attachments(project.externalId, id);
    const base = `/api/p/${encodeURIComponent(project.externalId)}/messages/${encodeURIComponent(id)}/attachments`;
    return {
      data: list.data.map(({ url: _url, ...a }) => ({ ...a, downloadPath: `${base}/${encodeURIComponent(a.id)}` })),
      error: null,
    };
  } catch (e) {
    if (isAppError(e) && e.status === 404) return { data: [], error: null };
    return { data: [], error: isAppError(e) ? e.message : "The attachments could not be listed." };
  }
}

async function fromIndex(row: IndexedMessageRow): Promise<Message> {
  const events = await (await db())
    .select()
    .from(indexedEvents)
    .where(eq(indexedEvents.messageId, row.id))
    .orderBy(asc(indexedEvents.occurredAt), asc(indexedEvents.seq));
  return {
    id: row.id,
    from: row.from,
    to: row.to,
    cc: row.cc,
    bcc: row.bcc,
    subject: row.subject,
    status: row.status,
    direction: row.direction,
    createdAt: row.createdAt.toISOString(),
    html: row.html,
    text: row.text,
    headers: row.headers ?? undefined,
    tags: row.tags,
    threadId: row.threadId,
    inReplyTo: row.inReplyTo,
    templateId: row.templateId,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    // A read's events are the service's whole lifecycle; the stream's are the fallback.
    events: (events.some((e) => e.origin === "read") ? events.filter((e) => e.origin === "read") : events).map((e) => ({ type: e.type, createdAt: e.occurredAt.toISOString(), data: e.data })),
  };
}
