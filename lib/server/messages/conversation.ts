import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { toIndexedMessage } from "./search";

/** A conversation shows at most this many messages. */
const MAX_MESSAGES = 200;

/** Where a conversation starts: the message, and the links a service's answer gave it that the index may not hold yet. */
export type ConversationStart = { messageId: string; threadId?: string | null; inReplyTo?: string | null };

/**
 * The ids of a conversation as one recursive walk in the database: from each message to its
 * row, its replies, its parent, every message of its thread and the message the thread is
 * named after. Rows are distinct per id, so `union` ends the walk when nothing new is found;
 * the limit stops it early on a huge thread (Postgres evaluates a recursive query only as far
 * as it is read).
 */
export function conversationIds(projectId: string, start: ConversationStart): SQL {
  return sql`
    with recursive linked(id, in_reply_to, thread_id) as (
      select ${start.messageId}::text, ${start.inReplyTo ?? null}::text, ${start.threadId ?? null}::text
      union
      select m.id, m.in_reply_to, m.thread_id
        from linked l
        join indexed_messages m
          on m.project_id = ${projectId}
         and (m.id = l.id or m.in_reply_to = l.id or m.id = l.in_reply_to or m.thread_id = l.thread_id or m.id = l.thread_id)
    )
    select id from (select id from linked limit ${MAX_MESSAGES + 1}) walked`;
}

/** The rows of a conversation, for a query that selects them with more. */
export const inConversation = (projectId: string, start: ConversationStart) =>
  and(eq(indexedMessages.projectId, projectId), sql`${indexedMessages.id} in (${conversationIds(projectId, start)})`)!;

/** Oldest first, at most MAX_MESSAGES. */
export function asConversation(rows: IndexedMessageRow[]): IndexedMessage[] {
  return rows
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .slice(0, MAX_MESSAGES)
    .map(toIndexedMessage);
}

/**
 * The conversation a message belongs to, oldest first, from what the index knows: the
 * `in_reply_to` links (the dashboard records one for every reply it sends; a service may give
 * them too) followed both ways along the whole chain, merged with the service's thread field
 * where messages have one (every message of a thread, and the message the thread is named
 * after). Works when the service has no thread field at all.
 */
export async function conversationOf(projectId: string, messageId: string, threadId: string | null = null): Promise<IndexedMessage[]> {
  const rows = await (await db())
    .select()
    .from(indexedMessages)
    .where(inConversation(projectId, { messageId, threadId }))
    .orderBy(asc(indexedMessages.createdAt), asc(indexedMessages.id));
  return asConversation(rows);
}
