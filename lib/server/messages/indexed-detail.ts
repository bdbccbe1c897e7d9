import "server-only";
import { sql } from "drizzle-orm";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { redactorOfRows, type ErasedRow, type Redactor } from "@/lib/server/redaction/redactor";
import { erasureOfRows, type Erasure } from "@/lib/server/message-index/tombstones";
import { asConversation, inConversation } from "./conversation";
import type { IndexState } from "@/lib/server/message-index/read";

export type IndexedDetail = {
  /** The message's row; null when the index does not know it. */
  row: IndexedMessageRow | null;
  /** Its conversation as the index links it (the message itself included). */
  conversation: IndexedMessage[];
  /** What the read cache checks (lib/server/message-index/read.ts). */
  state: IndexState;
  /** The `read:` keys of the events earlier reads indexed: whether a new answer adds any. */
  readEventIds: Set<string>;
  /**
   * The project's erasures as the index applies them to an answer (its redactor, and the
   * addresses an erasure took off this message): the answer is compared after them.
   */
  redact: Redactor;
  erasure: Erasure | null;
};

/**
 * Everything the message screen needs from the index, in one statement: the conversation's
 * rows (the message's own among them), whether events flow for the project, the newest
 * streamed event of the message, the events reads indexed and the project's erasures (what a
 * write of the answer would take out, so a read compares like with like). The project-wide values are
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
      erased: sql<ErasedRow[] | null>`(select json_agg(json_build_object('address_hash', address_hash, 'sealed', sealed) order by address_hash) from erased_addresses where project_id = ${projectId})`,
      tombstones: sql<{ hash: string; deleted: boolean }[] | null>`(select json_agg(json_build_object('hash', address_hash, 'deleted', deleted)) from erased_messages where project_id = ${projectId} and message_id = ${id})`,
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
    redact: redactorOfRows(projectId, first?.erased ?? []),
    erasure: erasureOfRows(first?.tombstones ?? []),
  };
}
