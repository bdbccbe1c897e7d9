import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import { idsOf, moveHourlySql } from "./sql-parts";

/**
 * The refresher's part for tags (called by refreshBatch after the messages' facts are saved):
 * each counted message's `name=value` tags, taken from the index, become rows of
 * `insight_tag_facts` and move `insight_tag_hourly` by the difference, as the facts move
 * `insight_hourly`. A tag the service reports only later (a re-read) comes with the mark that
 * write makes; a message erased or pruned leaves its facts, so its tag rows leave too.
 */

/** The tag pairs a project's rollup keeps; its messages' other pairs count under "other tags". */
export const INSIGHT_TAG_PAIRS_MAX = 100;
/** A kept pair none of whose messages is newer than this frees its place (longer than the longest period, 30 days). */
export const TAG_PAIR_IDLE_DAYS = 31;
/** Longer names or values are not kept as a pair of their own (the service bounds them far lower). */
const TAG_TEXT_MAX = 256;

/** The message's tags as (name, value) rows; anything but an array of string pairs is skipped. */
const TAGS_OF = sql.raw(`
  cross join lateral jsonb_array_elements(case when jsonb_typeof(m.tags) = 'array' then m.tags else '[]'::jsonb end) t
  cross join lateral (select t->>'name' as name, t->>'value' as value) tag`);
const KEEPABLE = sql.raw(
  `jsonb_typeof(t) = 'object' and tag.name <> '' and tag.value is not null and length(tag.name) <= ${TAG_TEXT_MAX} and length(tag.value) <= ${TAG_TEXT_MAX}`,
);

/**
 * Gives the batch's new pairs a place while their project has room (the pairs with most
 * messages in the batch first), and moves each kept pair's newest `at`. Pairs idle for
 * TAG_PAIR_IDLE_DAYS leave first, so the cap holds the pairs in use, not the first ever seen.
 * One refresher at a time holds the database, so the count cannot race.
 */
export async function admitTagPairs(tx: Db, ids: string[]): Promise<void> {
  await tx.execute(sql`
    delete from insight_tag_keys
     where last_at < now() - ${sql.raw(`interval '${TAG_PAIR_IDLE_DAYS} days'`)}
       and project_id in (select distinct project_id from insight_facts where message_id in ${idsOf(ids)})`);
  await tx.execute(sql`
    with pairs as (
      select f.project_id, tag.name, tag.value, count(*) as n, max(f.at) as last_at
        from insight_facts f
        join indexed_messages m on m.id = f.message_id
        ${TAGS_OF}
       where f.message_id in ${idsOf(ids)} and ${KEEPABLE}
       group by 1, 2, 3
    ),
    known as (
      update insight_tag_keys k set last_at = greatest(k.last_at, p.last_at)
        from pairs p
       where k.project_id = p.project_id and k.name = p.name and k.value = p.value
      returning k.project_id
    ),
    fresh as (
      select p.*, row_number() over (partition by p.project_id order by p.n desc, p.name, p.value) as rank
        from pairs p
       where not exists (select 1 from insight_tag_keys k where k.project_id = p.project_id and k.name = p.name and k.value = p.value)
    ),
    used as (
      select project_id, count(*) as n from insight_tag_keys where project_id in (select project_id from fresh) group by project_id
    )
    insert into insight_tag_keys (project_id, name, value, last_at)
    select fresh.project_id, fresh.name, fresh.value, fresh.last_at
      from fresh left join used on used.project_id = fresh.project_id
     where fresh.rank <= ${String(INSIGHT_TAG_PAIRS_MAX)}::int - coalesce(used.n, 0)
    on conflict do nothing`);
}

/** Recomputes these messages' tag rows from their facts and tags, and moves the tag rollup by the difference. */
export function tagFactsSql(ids: string[]): SQL {
  return sql`
    with ids as ${idsOf(ids)},
    tagged as (
      select f.message_id, f.project_id, f.at, f.outcome, f.opened, f.clicked, tag.name, tag.value, ${KEEPABLE} as keepable
        from insight_facts f
        join indexed_messages m on m.id = f.message_id
        ${TAGS_OF}
       where f.message_id in (select id from ids)
    ),
    fresh as (
      select distinct t.message_id, coalesce(k.name, '') as name, coalesce(k.value, '') as value, t.project_id, t.at, t.outcome, t.opened, t.clicked
        from tagged t
        left join insight_tag_keys k on t.keepable and k.project_id = t.project_id and k.name = t.name and k.value = t.value
    ),
    old as (select * from insight_tag_facts where message_id in (select id from ids)),
    gone as (
      delete from insight_tag_facts o
       where o.message_id in (select id from ids)
         and not exists (select 1 from fresh where fresh.message_id = o.message_id and fresh.name = o.name and fresh.value = o.value)
    ),
    saved as (
      insert into insight_tag_facts (message_id, name, value, project_id, at, outcome, opened, clicked)
      select message_id, name, value, project_id, at, outcome, opened, clicked from fresh
      on conflict (message_id, name, value) do update set project_id = excluded.project_id, at = excluded.at, outcome = excluded.outcome,
        opened = excluded.opened, clicked = excluded.clicked
    ),
    ${moveHourlySql("insight_tag_hourly", ["name", "value"])}`;
}

/**
 * Takes these pairs out of the tag figures whole — their place, their messages' rows and their
 * hourly rows (an erasure: pairs naming the erased address). Every row of a pair goes together,
 * so the rollup still equals its facts; the messages, their tags redacted by then, are counted
 * again under what their tags now say when the refresher next takes them. Call under the
 * refresher's lock (holdRefresherLock).
 */
export async function dropTagPairs(tx: Db, projectId: string, pairs: { name: string; value: string }[]): Promise<void> {
  if (pairs.length === 0) return;
  const list = sql`(select p->>'name' as name, p->>'value' as value from jsonb_array_elements(${JSON.stringify(pairs)}::jsonb) p)`;
  for (const table of ["insight_tag_keys", "insight_tag_facts", "insight_tag_hourly"]) {
    await tx.execute(sql`delete from ${sql.raw(table)} t where t.project_id = ${projectId} and (t.name, t.value) in ${list}`);
  }
}
