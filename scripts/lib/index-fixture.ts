import { sql } from "drizzle-orm";
import type { Db } from "@/lib/server/db";

/**
 * Fills the dashboard's message index of one project with `messages` made-up messages over
 * the last `days` days, fast: each batch is generated inside the database (generate_series),
 * so nothing crosses the driver row by row. The rows look like the index's own: one in
 * twenty inbound, statuses mostly delivered with bounces, complaints, rejections and
 * failures among them, 5,000 recipients, a tag, and one `indexed_recipients` row per address
 * (from and to), as recipientRows() writes them. Deterministic for a given `seed`.
 *
 * Minimal version written for bench-screens (wp/e1); the lead keeps E3's richer one (same
 * signature) at merge.
 */
export async function loadIndexFixture(
  db: Db,
  opts: { projectId: string; messages: number; days?: number; seed?: number; onProgress?: (done: number) => void },
): Promise<{ messages: number; ms: number }> {
  const started = performance.now();
  const days = opts.days ?? 90;
  const seed = opts.seed ?? 1;
  const spanMs = Math.max(1, Math.round(days * 86_400_000));
  const prefix = `fx${seed}_`;
  const batch = 50_000;
  const now = new Date().toISOString();
  for (let from = 0; from < opts.messages; from += batch) {
    const to = Math.min(opts.messages, from + batch) - 1;
    await db.execute(sql`
      insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, subject, tags, source, created_at, last_event_at, updated_at)
      select
        ${prefix} || lpad(g::text, 9, '0'),
        ${opts.projectId},
        case when g % 20 = 0 then 'inbound' else 'outbound' end,
        case when g % 20 = 0 then 'received'
             else (array['delivered','delivered','delivered','delivered','sent','bounced','complained','rejected','failed','delivered'])[1 + ((g + ${seed}) % 10)] end,
        case when g % 20 = 0 then 'user' || ((g * 7919 + ${seed}) % 5000) || '@example.com' else 'Acme <hello@acme.test>' end,
        jsonb_build_array(case when g % 20 = 0 then 'support@acme.test' else 'user' || ((g * 7919 + ${seed}) % 5000) || '@example.com' end),
        'Order ' || g || ' update',
        jsonb_build_array(jsonb_build_object('name', 'kind', 'value', case when g % 3 = 0 then 'receipt' else 'welcome' end)),
        'webhook',
        t.at, t.at, t.at
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select ${now}::timestamptz - ((((g::bigint + ${seed}) * 2654435761) % ${spanMs}::bigint) * interval '1 millisecond') as at) t
    `);
    const lo = `${prefix}${String(from).padStart(9, "0")}`;
    const hi = `${prefix}${String(to).padStart(9, "0")}`;
    await db.execute(sql`
      insert into indexed_recipients (message_id, project_id, email, role, created_at)
      select id, project_id, lower(coalesce(substring(from_address from '<([^<>]+)>\s*$'), from_address)), 'from', created_at
        from indexed_messages where id between ${lo} and ${hi}
      union all
      select id, project_id, lower(to_addresses->>0), 'to', created_at
        from indexed_messages where id between ${lo} and ${hi}
    `);
    opts.onProgress?.(to + 1);
  }
  await db.execute(sql`analyze indexed_messages`);
  await db.execute(sql`analyze indexed_recipients`);
  return { messages: opts.messages, ms: performance.now() - started };
}
