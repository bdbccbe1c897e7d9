import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { RecipientEngagement } from "@/lib/schemas/insight";
import { db } from "@/lib/server/db";

/**
 * One address's engagement: the outbound messages it received (to, cc or bcc), how many were
 * delivered, opened and clicked — each message once, whichever origin the events came from —
 * and the last open and click. Read from the index by the address, so a recipient with a few
 * hundred messages costs a few hundred index rows.
 */
export async function recipientEngagement(projectId: string, email: string): Promise<RecipientEngagement> {
  const d = await db();
  const [row] = rowsOf<Record<string, unknown>>(
    await d.execute(sql`
      with msgs as (
        select distinct m.id, m.status
          from indexed_recipients r
          join indexed_messages m on m.id = r.message_id and m.project_id = r.project_id
         where r.project_id = ${projectId} and r.email = ${email} and r.role <> 'from' and m.direction = 'outbound'
      ),
      ev as (
        select e.message_id,
               bool_or(e.type = 'click') as clicked,
               max(e.occurred_at) filter (where e.type = 'open') as last_open,
               max(e.occurred_at) filter (where e.type = 'click') as last_click
          from indexed_events e
         where e.project_id = ${projectId} and e.message_id in (select id from msgs) and e.type in ('open', 'click')
         group by e.message_id
      )
      select count(*)::int as received,
             (count(*) filter (where msgs.status in ('delivered', 'complained')))::int as delivered,
             (count(ev.message_id))::int as opened,
             (count(*) filter (where ev.clicked))::int as clicked,
             max(ev.last_open) as last_open,
             max(ev.last_click) as last_click
        from msgs left join ev on ev.message_id = msgs.id`),
  );
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());
  return {
    received: Number(row?.received ?? 0),
    delivered: Number(row?.delivered ?? 0),
    opened: Number(row?.opened ?? 0),
    clicked: Number(row?.clicked ?? 0),
    lastOpenAt: iso(row?.last_open),
    lastClickAt: iso(row?.last_click),
  };
}
