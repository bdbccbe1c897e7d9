import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import type { StreamEvent } from "./stream-event";

/*
 * The statements here carry their rows as one JSON document: the statement's text is the
 * same whatever the batch's size, so the server prepares it once per connection (a VALUES
 * list of n rows is a new statement for every n, and each new one costs a round trip to
 * prepare), and building it costs no per-row SQL.
 */

/**
 * The event rows, in arrival order (their `seq` is the order the stream delivered them: an
 * insert from a set-returning function takes its rows in the function's order). True per
 * event when new.
 */
export async function insertEvents(tx: Db, events: StreamEvent[], now: Date): Promise<boolean[]> {
  const firstOf = new Map<string, number>();
  events.forEach((s, i) => {
    const k = `${s.projectId}\u0000${s.key}`;
    if (!firstOf.has(k)) firstOf.set(k, i);
  });
  const unique = [...firstOf.values()];
  const taken = new Set<string>();
  for (let i = 0; i < unique.length; i += 1000) {
    const doc = unique.slice(i, i + 1000).map((n) => {
      const { projectId, key, event: e } = events[n]!;
      return { m: e.messageId, p: projectId, t: e.type, at: (e.occurredAt ?? now).toISOString(), d: e.details ?? {}, k: key };
    });
    const rows = rowsOf<{ project_id: string; webhook_id: string }>(
      await tx.execute(sql`
        insert into indexed_events (message_id, project_id, type, occurred_at, data, webhook_id, origin)
        select x.m, x.p, x.t, x.at::timestamptz, x.d, x.k, 'stream'
          from jsonb_to_recordset(${JSON.stringify(doc)}::jsonb) as x(m text, p text, t text, at text, d jsonb, k text)
        on conflict (project_id, webhook_id) do nothing
        returning project_id, webhook_id`),
    );
    for (const r of rows) taken.add(`${r.project_id}\u0000${r.webhook_id}`);
  }
  return events.map((s, i) => {
    const k = `${s.projectId}\u0000${s.key}`;
    return firstOf.get(k) === i && taken.has(k);
  });
}
