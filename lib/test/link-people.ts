import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";

type PeopleRow = { project_id: string; link: string; hour: string; people: number };
const keyed = (rows: PeopleRow[]) =>
  Object.fromEntries(rows.filter((r) => Number(r.people) !== 0).map((r) => [`${r.project_id} ${r.link} ${new Date(r.hour).toISOString()}`, Number(r.people)]));

/**
 * `insight_link_people_hourly` as it is, and as a count over `insight_link_recipients` says it
 * should be (hours with nobody left out): tests compare the two after every kind of write.
 */
export async function linkPeopleRollup(d: Db): Promise<{ rollup: Record<string, number>; recount: Record<string, number> }> {
  const rollup = rowsOf<PeopleRow>(await d.execute(sql`select project_id, link, hour, people from insight_link_people_hourly`));
  const recount = rowsOf<PeopleRow>(
    await d.execute(sql`
      select project_id, link, (date_trunc('hour', last_at at time zone 'UTC') at time zone 'UTC') as hour, count(*)::int as people
        from insight_link_recipients group by 1, 2, 3`),
  );
  return { rollup: keyed(rollup), recount: keyed(recount) };
}
