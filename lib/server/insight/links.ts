import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { db, type Db } from "@/lib/server/db";
import type { TopLink } from "@/lib/schemas/overview";
import { ts } from "./windows";

/**
 * The links clicked most in messages sent since `since`: messages in which each was clicked
 * (from the hourly link rollup), and the people who clicked it (recipients whose newest
 * message with a click on it is in the period, from the hourly rollup of those newest clicks:
 * like the messages, counted from the hour `since` falls in).
 * Links are kept without their query string and fragment, so `?utm_…` and per-person tokens
 * add up to one link.
 */
export async function topLinks(projectId: string, since: Date, now: Date, limit = 10, d?: Db): Promise<TopLink[]> {
  const database = d ?? (await db());
  const top = rowsOf<{ link: string; messages: number }>(
    await database.execute(sql`
      select link, sum(messages)::int as messages
        from insight_link_hourly
       where project_id = ${projectId} and hour >= ${ts(Math.floor(since.getTime() / 3_600_000) * 3_600_000)} and hour <= ${ts(now)}
       group by link
      having sum(messages) > 0
       order by messages desc, link
       limit ${String(limit)}::int`),
  );
  if (top.length === 0) return [];
  const people = rowsOf<{ link: string; people: number }>(
    await database.execute(sql`
      select link, sum(people)::int as people
        from insight_link_people_hourly
       where project_id = ${projectId} and link in (select jsonb_array_elements_text(${JSON.stringify(top.map((t) => t.link))}::jsonb)) and hour >= ${ts(Math.floor(since.getTime() / 3_600_000) * 3_600_000)}
       group by link`),
  );
  const byLink = new Map(people.map((p) => [p.link, Number(p.people)]));
  return top.map((t) => ({ link: t.link, messages: Number(t.messages), uniqueClicks: byLink.get(t.link) ?? 0 }));
}
