import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { textArray } from "@/lib/server/db/arrays";

const hourText = (column: string) => `(date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC')`;
/** The rollup's bucket of a timestamp: its hour in UTC, whatever the session's time zone. */
export const hourOf = (column: string) => sql.raw(hourText(column));

/** The ids as a subquery; an array, so the planner knows how many (lib/server/db/arrays.ts). */
export const idsOf = (ids: string[]) => sql`(select unnest(${textArray(ids)}::text[]) as id)`;

const COUNTS = ["sent", "delivered", "bounced", "complained", "rejected", "failed", "opened", "clicked"];

/**
 * The end of a refresh statement whose CTEs `fresh` and `old` hold the new and the old facts of
 * its messages (project_id, at, outcome, opened, clicked and the `groups` columns): moves the
 * hourly rollup `table`, keyed by project, hour and `groups`, by new minus old. Shared by the
 * provider rollup and the tag rollup, so both count an outcome the same way.
 */
export function moveHourlySql(table: string, groups: string[]): SQL {
  const g = groups.join(", ");
  return sql.raw(`
    delta as (
      select project_id, hour, ${g},
             sum(sign) as sent,
             sum(sign * (outcome in ('delivered', 'complained'))::int) as delivered,
             sum(sign * (outcome = 'bounced')::int) as bounced,
             sum(sign * (outcome = 'complained')::int) as complained,
             sum(sign * (outcome = 'rejected')::int) as rejected,
             sum(sign * (outcome = 'failed')::int) as failed,
             sum(sign * opened::int) as opened,
             sum(sign * clicked::int) as clicked
        from (select project_id, ${hourText("at")} as hour, ${g}, outcome, opened, clicked, 1 as sign from fresh
              union all
              select project_id, ${hourText("at")} as hour, ${g}, outcome, opened, clicked, -1 as sign from old) x
       group by project_id, hour, ${g}
    )
    insert into ${table} as h (project_id, hour, ${g}, ${COUNTS.join(", ")})
    select project_id, hour, ${g}, ${COUNTS.join(", ")} from delta
     where ${COUNTS.map((c) => `${c} <> 0`).join(" or ")}
    on conflict (project_id, hour, ${g}) do update set
      ${COUNTS.map((c) => `${c} = h.${c} + excluded.${c}`).join(", ")}`);
}
