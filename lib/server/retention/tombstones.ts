import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import type { Db } from "@/lib/server/db";
import { erasedMessages } from "@/lib/server/db/schema/retention";
import { bareAddress } from "@/lib/server/messages/recipients";
import { addressHash } from "./address-hash";

/**
 * What an erasure left for later writers of the index (the ingest, re-reads, look-ups): the
 * service still holds the message and may bring it back, so a deleted message stays out and
 * an erased address stays off a message that was only stripped.
 */
export type Erasure = { deleted: boolean; hashes: Set<string> };

export async function erasureOf(t: Db, projectId: string, messageId: string): Promise<Erasure | null> {
  const rows = await t
    .select({ hash: erasedMessages.addressHash, deleted: erasedMessages.deleted })
    .from(erasedMessages)
    .where(and(eq(erasedMessages.projectId, projectId), eq(erasedMessages.messageId, messageId)));
  if (!rows.length) return null;
  return { deleted: rows.some((r) => r.deleted), hashes: new Set(rows.map((r) => r.hash)) };
}

/**
 * Of these messages (project and id), the ones an erasure removed whole, as `project\u0000id`
 * keys: one query for a whole batch of the ingest.
 */
export async function deletedByErasure(t: Db, messages: { projectId: string; messageId: string }[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < messages.length; i += 1000) {
    const doc = JSON.stringify(messages.slice(i, i + 1000).map((m) => ({ p: m.projectId, m: m.messageId })));
    const rows = rowsOf<{ project_id: string; message_id: string }>(
      await t.execute(sql`
        select distinct e.project_id, e.message_id
          from erased_messages e
          join jsonb_to_recordset(${doc}::jsonb) as x(p text, m text) on e.project_id = x.p and e.message_id = x.m
         where e.deleted`),
    );
    for (const r of rows) out.add(`${r.project_id}\u0000${r.message_id}`);
  }
  return out;
}

/** The list without the erased addresses (`"Ann <ann@x.io>"` entries compared by their address). */
export function withoutErased(list: string[], erasure: Erasure): string[] {
  return list.filter((entry) => !erasure.hashes.has(addressHash(bareAddress(entry))));
}
