import "server-only";
import { sql } from "drizzle-orm";
import { dueInOf } from "@/contract/db/due-gate";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";

/**
 * Marks messages for the insight refresher (lib/server/insight/refresh.ts): every write path
 * of the message index calls this in its own transaction. One insert whose ids travel as one
 * JSON document (a batch chunk's hundred ids as two hundred parameters took PGlite 9 ms, the
 * document 1). A message marked again gets a row more (the table has no unique key, so the
 * insert never waits on the refresher: lib/server/db/schema/insight.ts); the refresher takes
 * all of a message's rows at once.
 */
export async function markInsightDirty(tx: Db, projectId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const unique = [...new Set(messageIds)];
  for (let i = 0; i < unique.length; i += 5000) {
    await tx.execute(sql`
      insert into insight_dirty (message_id, project_id)
      select value, ${projectId} from jsonb_array_elements_text(${JSON.stringify(unique.slice(i, i + 5000))}::jsonb)`);
  }
}

/** Every message of the index, marked once (a dashboard that indexed mail before insight existed). */
export async function markAllOnce(d: Db): Promise<number> {
  const result = await d.execute(sql`
    with first as (insert into insight_meta (key) values ('backfill') on conflict do nothing returning key)
    insert into insight_dirty (message_id, project_id)
    select m.id, m.project_id from indexed_messages m, first where m.direction = 'outbound'`);
  return rowCount(result);
}

export function rowCount(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number; count?: number; length?: number };
  return r.rowCount ?? r.affectedRows ?? r.count ?? 0;
}

/** The refresher's due gate: marks wait now (0), or none does (null). */
export async function dirtyMarksDue(d: Db): Promise<number | null> {
  return dueInOf(rowsOf(await d.execute(sql`select (case when exists (select 1 from insight_dirty) then 0 end)::float8 as in_ms`)));
}
