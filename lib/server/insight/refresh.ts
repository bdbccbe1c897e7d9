import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { consumerProvider } from "@/lib/insight/providers";
import { db, type Db } from "@/lib/server/db";
import { ALERT_TAG } from "./alert-tag";
import { hourOf, idsOf, moveHourlySql } from "./sql-parts";
import { tagFactsSql, admitTagPairs } from "./tag-refresh";

/**
 * The refresher: recomputes the facts of the messages marked in `insight_dirty` from the
 * index and moves the rollups (`insight_hourly`, `insight_tag_hourly`, `insight_link_*`) by the difference between
 * each message's old facts and its new ones, in one transaction per batch. Deriving from the
 * state rather than counting writes is what lets the index be written from several paths, any
 * number of times, in any order.
 *
 * One refresher per database at a time (a transaction-level advisory lock; the others skip),
 * so two batches never move the same message at once. Runs in the background of each
 * dashboard (lib/server/alerts/background.ts) and, bounded, before a screen reads the figures.
 */
const LOCK_KEY = "7460312851010021"; // any constant shared by every dashboard on the database

/**
 * Waits for the refresher's lock until the end of `tx`: for a writer that moves a rollup by
 * what it deleted (retention, erasure), so a refresher batch that read the same rows before
 * the delete cannot move it by them a second time.
 */
export async function holdRefresherLock(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY}::bigint)`);
}

/**
 * Deletes `insight_link_recipients` rows and moves `insight_link_people_hourly` down by them;
 * `deleted` is a `delete … returning project_id, link, last_at` statement. One row: `removed`.
 */
export function deleteLinkPeopleSql(deleted: SQL): SQL {
  return sql`
    with gone as (${deleted}),
    down as (select project_id, link, ${hourOf("last_at")} as hour, count(*)::int as n from gone group by 1, 2, 3),
    moved as (
      update insight_link_people_hourly ph set people = ph.people - down.n
        from down
       where ph.project_id = down.project_id and ph.link = down.link and ph.hour = down.hour
    )
    select (select count(*) from gone)::int as removed`;
}

/** The first recipient as a lower-cased bare address: `Ada <ada@x.test>` → `ada@x.test`. */
export const RECIPIENT_SQL = sql.raw(`lower(trim(coalesce(substring(m.to_addresses->>0 from '<([^<>]+)>\\s*$'), m.to_addresses->>0, '')))`);


/** Where services put the link of a click (`link` for the interface's local service). */
const LINK_SQL = sql.raw(
  `coalesce(e.data->>'link', e.data->>'url', e.data->>'clickedUrl', e.data->>'clickedLink', e.data->>'originalLink', e.data->>'OriginalLink', e.data->>'href', e.data->'click'->>'link', e.data->'click'->>'url')`,
);


/** Recipient domains of these messages that the domains table does not hold yet: consumer ones classified now, the rest queued for an MX lookup. */
async function addNewDomains(tx: Db, ids: string[]): Promise<void> {
  const rows = rowsOf<{ domain: string }>(
    await tx.execute(sql`
      select distinct split_part(${RECIPIENT_SQL}, '@', 2) as domain
        from indexed_messages m
       where m.id in ${idsOf(ids)} and m.direction = 'outbound'
         and not exists (select 1 from insight_domains d where d.domain = split_part(${RECIPIENT_SQL}, '@', 2))`),
  ).filter((r) => r.domain && r.domain.length <= 253);
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(({ domain }) => {
      const listed = consumerProvider(domain);
      return listed
        ? sql`(${domain}, ${listed}, 'list', now() + interval '30 days')`
        : sql`(${domain}, null, 'pending', now())`;
    }),
    sql`, `,
  );
  await tx.execute(sql`insert into insight_domains (domain, provider, source, expires_at) values ${values} on conflict (domain) do nothing`);
}

/** Recomputes the facts of these messages and moves the hourly rollups by the difference (exported for refresh-plan.test.ts, which reads its plan). */
export function factsSql(ids: string[]): SQL {
  return sql`
    with ids as ${idsOf(ids)},
    fresh as (
      select m.id as message_id, m.project_id,
             greatest(m.created_at, coalesce(m.scheduled_at, m.created_at)) as at,
             r.recipient, split_part(r.recipient, '@', 2) as domain,
             coalesce(dom.provider, 'other') as provider,
             case m.status when 'delivered' then 'delivered' when 'complained' then 'complained' when 'bounced' then 'bounced'
                           when 'rejected' then 'rejected' when 'failed' then 'failed' else 'pending' end as outcome,
             coalesce(ev.opened, false) as opened, coalesce(ev.clicked, false) as clicked
        from indexed_messages m
        cross join lateral (select ${RECIPIENT_SQL} as recipient) r
        left join insight_domains dom on dom.domain = split_part(r.recipient, '@', 2)
        -- The message's events found by its id alone, the one condition the (message_id, …)
        -- index answers; project and type are judged on those few rows. With them in the
        -- condition the planner could walk the (project_id, type, …) index instead: every open
        -- of the project for each message, 0.7 ms a message and 400 ms a batch on Postgres
        -- with the statistics of a table that had grown since they were taken (bench:ingest).
        cross join lateral (
          select bool_or(e.type in ('open', 'click')) filter (where e.project_id = m.project_id) as opened,
                 bool_or(e.type = 'click') filter (where e.project_id = m.project_id) as clicked
            from indexed_events e
           where e.message_id = m.id) ev
       where m.id in (select id from ids) and m.direction = 'outbound' and m.status <> 'canceled'
         and not (m.tags @> ${JSON.stringify([ALERT_TAG])}::jsonb)
    ),
    old as (select * from insight_facts where message_id in (select id from ids)),
    gone as (delete from insight_facts where message_id in (select id from ids) and message_id not in (select message_id from fresh)),
    saved as (
      insert into insight_facts (message_id, project_id, at, recipient, domain, provider, outcome, opened, clicked)
      select message_id, project_id, at, recipient, domain, provider, outcome, opened, clicked from fresh
      on conflict (message_id) do update set project_id = excluded.project_id, at = excluded.at, recipient = excluded.recipient,
        domain = excluded.domain, provider = excluded.provider, outcome = excluded.outcome, opened = excluded.opened, clicked = excluded.clicked
    ),
    ${moveHourlySql("insight_hourly", ["provider"])}`;
}

/** The links clicked in these messages (after their facts are saved: the link rows take the message's time and recipient). */
export function linksSql(ids: string[]): SQL {
  return sql`
    with ids as ${idsOf(ids)},
    fresh as (
      select distinct f.message_id, left(regexp_replace(l.raw, '[?#].*$', ''), 2000) as link, f.project_id, f.at, f.recipient
        from insight_facts f
        -- The clicked messages' events, found by the message id alone (see factsSql); the
        -- OFFSET 0 keeps the planner from folding the project and type back into the scan.
        join lateral (select e.project_id, e.type, e.data from indexed_events e where e.message_id = f.message_id offset 0) e
          on e.project_id = f.project_id and e.type = 'click'
        cross join lateral (select ${LINK_SQL} as raw) l
       where f.message_id in (select id from ids) and f.clicked and l.raw ~* '^https?://[^/?#]'
    ),
    old as (select * from insight_link_clicks where message_id in (select id from ids)),
    gone as (
      delete from insight_link_clicks c
       where c.message_id in (select id from ids)
         and not exists (select 1 from fresh where fresh.message_id = c.message_id and fresh.link = c.link)
    ),
    saved as (
      insert into insight_link_clicks (message_id, link, project_id, at)
      select message_id, link, project_id, at from fresh
      on conflict (message_id, link) do update set project_id = excluded.project_id, at = excluded.at
    ),
    prev as (
      select w.project_id, w.link, w.recipient, w.last_at from insight_link_recipients w
       where (w.project_id, w.link, w.recipient) in (select project_id, link, recipient from fresh where recipient <> '')
    ),
    who as (
      insert into insight_link_recipients as w (project_id, link, recipient, last_at)
      select project_id, link, recipient, max(at) from fresh where recipient <> '' group by project_id, link, recipient
      on conflict (project_id, link, recipient) do update set last_at = greatest(w.last_at, excluded.last_at)
      returning project_id, link, recipient, last_at
    ),
    moved as (
      select who.project_id, who.link, ${hourOf("who.last_at")} as hour, 1 as sign
        from who left join prev on prev.project_id = who.project_id and prev.link = who.link and prev.recipient = who.recipient
       where prev.last_at is null or ${hourOf("prev.last_at")} <> ${hourOf("who.last_at")}
      union all
      select prev.project_id, prev.link, ${hourOf("prev.last_at")} as hour, -1 as sign
        from prev join who on prev.project_id = who.project_id and prev.link = who.link and prev.recipient = who.recipient
       where ${hourOf("prev.last_at")} <> ${hourOf("who.last_at")}
    ),
    people as (
      insert into insight_link_people_hourly as ph (project_id, link, hour, people)
      select project_id, link, hour, sum(sign)::int from moved group by project_id, link, hour having sum(sign) <> 0
      on conflict (project_id, link, hour) do update set people = ph.people + excluded.people
    ),
    delta as (
      select project_id, hour, link, sum(sign) as messages
        from (select project_id, ${hourOf("at")} as hour, link, 1 as sign from fresh
              union all
              select project_id, ${hourOf("at")} as hour, link, -1 as sign from old) x
       group by project_id, hour, link
    )
    insert into insight_link_hourly as lh (project_id, hour, link, messages)
    select project_id, hour, link, messages from delta where messages <> 0
    on conflict (project_id, hour, link) do update set messages = lh.messages + excluded.messages`;
}

/**
 * One batch: claims up to `limit` marks and refreshes their messages. Returns how many marks
 * it took (fewer than `limit`: none are left), or null when another refresher holds the database.
 */
export async function refreshBatch(limit = 500, d?: Db, wait = false): Promise<number | null> {
  const database = d ?? (await db());
  return database.transaction(async (tx) => {
    if (wait) await holdRefresherLock(tx);
    else {
      const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}::bigint) as locked`));
      if (!lock?.locked) return null;
    }
    // The oldest marks; a message marked twice among them is refreshed once.
    const claimed = rowsOf<{ message_id: string }>(
      await tx.execute(sql`
        delete from insight_dirty where seq in (select seq from insight_dirty order by seq limit ${String(limit)}::int for update skip locked)
        returning message_id`),
    );
    if (claimed.length === 0) return 0;
    const ids = [...new Set(claimed.map((r) => r.message_id))];
    await addNewDomains(tx, ids);
    await tx.execute(factsSql(ids));
    await admitTagPairs(tx, ids);
    await tx.execute(tagFactsSql(ids));
    await tx.execute(linksSql(ids));
    return claimed.length;
  });
}

/**
 * Claimed marks leave dead rows in `insight_dirty`; PGlite has no autovacuum, so without this
 * the table keeps every page it ever had, and each refresh — every screen reading the figures
 * runs one — scans them all to find nothing (50 ms at a million messages refreshed). Once this
 * many marks were claimed and the queue has run dry, the table is vacuumed (which also hands
 * its empty pages back); on Postgres it only does autovacuum's work a little earlier.
 */
export const VACUUM_AFTER_CLAIMED = 10_000;
const claimedSinceVacuum = new WeakMap<Db, number>();

/**
 * Refreshes until nothing is marked, or `maxBatches` batches are done (a screen reading the
 * figures refreshes a little first, so what it shows is current when the backlog is small).
 * Returns the marks taken (a message marked twice counts twice); stops early when another refresher holds the database.
 */
/**
 * `wait`: for a reader about to use the rollups — rather than skip while another refresher
 * holds the database (its batch not yet committed, so the rollups not yet moved), wait for its
 * batch and go on. Without it, an alert check racing the background refresher judged figures a
 * batch old and missed a crossing.
 */
export async function refreshInsight(opts: { maxBatches?: number; batchSize?: number; wait?: boolean; stopWhen?: () => boolean } = {}, d?: Db): Promise<number> {
  const database = d ?? (await db());
  const batchSize = opts.batchSize ?? 500;
  let total = 0;
  let drained = false;
  // `stopWhen`: checked before each batch after the first, so work that came meanwhile (an export) waits one batch at most.
  for (let i = 0; i < (opts.maxBatches ?? Infinity) && !(i > 0 && opts.stopWhen?.()); i++) {
    const done = await refreshBatch(batchSize, database, opts.wait ?? false);
    if (done === null) break;
    total += done;
    if (done < batchSize) {
      drained = true;
      break;
    }
  }
  const claimed = (claimedSinceVacuum.get(database) ?? 0) + total;
  claimedSinceVacuum.set(database, claimed);
  if (drained && claimed >= VACUUM_AFTER_CLAIMED) {
    claimedSinceVacuum.set(database, 0);
    await database.execute(sql`vacuum insight_dirty`);
  }
  return total;
}
