import "server-only";
import { isAppError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/emails";
import type { AttachmentView, IndexedMessage, MessageDetail } from "@/lib/schemas/messages-index";
import type { Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { indexedEvents, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { service } from "@/lib/server/service";
import { asc, eq } from "drizzle-orm";
import { afterResponse } from "@/lib/server/http/after-response";
import { readThroughCache } from "@/lib/server/message-index/read";
import { settledState } from "./settled";
import { bareAddress } from "@/lib/messages/bare-address";
import { conversationOf } from "./conversation";
import { toIndexedMessage } from "./search";
import { readIndexedDetail, type IndexedDetail } from "./indexed-detail";
import { answerDiffersFromIndex, indexServiceMessage } from "@/lib/server/message-index/lookup";
import { suppressionsOf } from "./suppression-of";

/** Outcomes whose explanation depends on the recipient being suppressed. */
const SUPPRESSION_STATUSES = new Set(["bounced", "complained", "rejected"]);

/**
 * The message screen's data: one read of the index (the message's row, its conversation and
 * the read cache's state, ./indexed-detail.ts), then the service (it has the full timeline;
 * through the read cache, see lib/server/message-index/read.ts). The service's answer is written into the index only
 * when it brings something new — so a pasted id the index never saw is searchable afterwards —
 * and the conversation is read again only when that write or the answer's thread changes it.
 * When the service no longer has the message, the index answers.
 */
export async function getMessageDetail(project: Project, id: string): Promise<MessageDetail> {
  const indexed = await readIndexedDetail(project.id, id);
  let message: Message;
  let thread = indexed.conversation;
  try {
    const read = await readThroughCache(project, id, { state: indexed.state });
    message = read.message;
    if (read.fromService) thread = await recordAnswer(project.id, id, message, indexed);
  } catch (e) {
    if (!(isAppError(e) && e.status === 404 && indexed.row)) throw e;
    message = await fromIndex(indexed.row);
  }
  const [attachments, suppressions] = await Promise.all([
    attachmentsOf(project, id),
    SUPPRESSION_STATUSES.has(message.status) && message.direction === "outbound"
      ? suppressionsOf(project.externalId, message.to.map(bareAddress)).catch(() => [])
      : Promise.resolve([]),
  ]);
  return {
    message,
    ...settledState(message),
    source: indexed.row?.source ?? "lookup",
    sentBy: indexed.row?.sentBy ?? null,
    attachments: attachments.data,
    attachmentsError: attachments.error,
    thread: thread.length > 1 ? thread : [],
    suppressions,
  };
}

/**
 * Writes what the service said into the index when it differs from the row, and answers the
 * conversation to show. A message the index holds without a thread is written before the
 * screen is answered, so the conversation shows the message as the service has it (the row as
 * written; the conversation is walked again only when the answer added a link). One with a
 * thread is written after the response, and its conversation follows the thread the service
 * names.
 */
async function recordAnswer(projectId: string, id: string, message: Message, indexed: IndexedDetail): Promise<IndexedMessage[]> {
  const { row, conversation } = indexed;
  if (row && !answerDiffersFromIndex(row, indexed.readEventIds, message, indexed.redact, indexed.erasure)) return conversation;
  const threadId = message.threadId ?? null;
  if (!row?.threadId) {
    const written = await indexServiceMessage(projectId, message);
    // Walked again when the answer linked the message elsewhere or moved it in time (the order).
    const moved = !row || !written || threadId !== null || written.inReplyTo !== row.inReplyTo || written.createdAt.getTime() !== row.createdAt.getTime();
    if (moved) return conversationOf(projectId, id, threadId);
    return conversation.map((m) => (m.id === id ? toIndexedMessage(written) : m));
  }
  afterResponse(`index: could not record ${id}`, () => indexServiceMessage(projectId, message));
  return threadId && threadId !== row.threadId ? conversationOf(projectId, id, threadId) : conversation;
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
