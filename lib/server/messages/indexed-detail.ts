import "server-only";
import { sql } from "drizzle-orm";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { asConversation, inConversation } from "./conversation";
import type { IndexState } from "./read";

export type IndexedDetail = {
  /** The message's row; null when the index does not know it. */
  row: IndexedMessageRow | null;
  /** Its conversation as the index links it (the message itself included). */
  conversation: IndexedMessage[];
  /** What the read cache checks (./read.ts). */
  state: IndexState;
  /** The `read:` keys of the events earlier reads indexed: whether a new answer adds any. */
  readEventIds: Set<string>;
};

/**
 * Everything the message screen needs from the index, in one statement: the conversation's
 * rows (the message's own among them), whether events flow for the project, the newest
 * streamed event of the message and the events reads indexed. The project-wide values are
 * uncorrelated subqueries, computed once; the one-row `from` keeps them when the index knows
 * no row at all.
 */
export async function readIndexedDetail(projectId: string, id: string): Promise<IndexedDetail> {
  const rows = await (await db())
    .select({
      member: indexedMessages,
      streaming: sql<boolean>`exists (select 1 from event_streams where project_id = ${projectId})`,
      eventSeq: sql<string | number | null>`(select max(seq) from indexed_events where message_id = ${id} and project_id = ${projectId} and origin = 'stream')`,
      readEventIds: sql<string[] | null>`(select json_agg(webhook_id) from indexed_events where message_id = ${id} and project_id = ${projectId} and origin = 'read')`,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(indexedMessages, inConversation(projectId, { messageId: id }));
  const members = rows.flatMap((r) => (r.member ? [r.member] : []));
  const row = members.find((m) => m.id === id) ?? null;
  const first = rows[0];
  return {
    row,
    conversation: asConversation(members),
    state: { streaming: Boolean(first?.streaming), eventSeq: Number(first?.eventSeq ?? 0), status: row?.status ?? null },
    readEventIds: new Set(first?.readEventIds ?? []),
  };
}
