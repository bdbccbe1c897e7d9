import "server-only";
import { sql } from "drizzle-orm";
import { textArray } from "@/lib/server/db/arrays";

/** The rollup's bucket of a timestamp: its hour in UTC, whatever the session's time zone. */
export const hourOf = (column: string) => sql.raw(`(date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC')`);

/** The ids as a subquery; an array, so the planner knows how many (lib/server/db/arrays.ts). */
export const idsOf = (ids: string[]) => sql`(select unnest(${textArray(ids)}::text[]) as id)`;
