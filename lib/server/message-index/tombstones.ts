import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import { erasedMessages } from "@/lib/server/db/schema/retention";
import { bareAddress } from "@/lib/messages/bare-address";
import { addressHash } from "@/lib/server/redaction/address-hash";

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
  return erasureOfRows(rows);
}

/** The erasure of a message from its erased_messages rows, however they were read (null: none). */
export function erasureOfRows(rows: readonly { hash: string; deleted: boolean }[]): Erasure | null {
  if (!rows.length) return null;
  return { deleted: rows.some((r) => r.deleted), hashes: new Set(rows.map((r) => r.hash)) };
}

/**
 * True when an erasure removed this message whole (`projectId` and `messageId` are SQL
 * expressions of the statement it is part of): the ingest asks it of every message it creates,
 * in the statement that creates them.
 */
export function erasedWholeSql(projectId: SQL, messageId: SQL): SQL {
  return sql`exists (select 1 from erased_messages e where e.project_id = ${projectId} and e.message_id = ${messageId} and e.deleted)`;
}

/** The list without the erased addresses (`"Ann <ann@x.io>"` entries compared by their address). */
export function withoutErased(list: string[], erasure: Erasure): string[] {
  return list.filter((entry) => !erasure.hashes.has(addressHash(bareAddress(entry))));
}
