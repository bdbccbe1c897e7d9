import "server-only";
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { toIndexedMessage } from "./search";

/** A conversation shows at most this many messages. */
const MAX_MESSAGES = 200;
const MAX_ROUNDS = 25;

/**
 * The conversation a message belongs to, oldest first, from what the index knows: the
 * `in_reply_to` links (the dashboard records one for every reply it sends; a service may give
 * them too) followed both ways along the whole chain, merged with the service's thread field
 * where messages have one (every message of a thread, and the message the thread is named
 * after). Works when the service has no thread field at all.
 */
export async function conversationOf(projectId: string, messageId: string, threadId: string | null = null): Promise<IndexedMessage[]> {
  const d = await db();
  const found = new Map<string, IndexedMessageRow>();
  const askedIds = new Set<string>();
  const askedThreads = new Set<string>();
  let ids = [messageId];
  let threads = threadId ? [threadId] : [];
  for (let round = 0; round < MAX_ROUNDS && (ids.length || threads.length) && found.size < MAX_MESSAGES; round++) {
    ids.forEach((id) => askedIds.add(id));
    threads.forEach((t) => askedThreads.add(t));
    const match: SQL[] = [];
    if (ids.length) match.push(inArray(indexedMessages.id, ids), inArray(indexedMessages.inReplyTo, ids));
    if (threads.length) match.push(inArray(indexedMessages.threadId, threads), inArray(indexedMessages.id, threads));
    const rows = await d
      .select()
      .from(indexedMessages)
      .where(and(eq(indexedMessages.projectId, projectId), or(...match)))
      .limit(MAX_MESSAGES);
    const nextIds = new Set<string>();
    const nextThreads = new Set<string>();
    for (const row of rows) {
      if (found.size >= MAX_MESSAGES && !found.has(row.id)) break;
      found.set(row.id, row);
      // Each message leads to its replies (asked by id), its parent, and its thread.
      if (!askedIds.has(row.id)) nextIds.add(row.id);
      if (row.inReplyTo && !askedIds.has(row.inReplyTo)) nextIds.add(row.inReplyTo);
      if (row.threadId && !askedThreads.has(row.threadId)) nextThreads.add(row.threadId);
    }
    ids = [...nextIds];
    threads = [...nextThreads];
  }
  return [...found.values()]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map(toIndexedMessage);
}
