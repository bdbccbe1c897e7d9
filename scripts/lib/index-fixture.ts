/**
 * A large, believable message index for benchmarks (`bench:search`, `bench:screens`): rows in
 * `indexed_messages`, `indexed_recipients` and `indexed_events` as the dashboard's write paths
 * would have left them after the event stream delivered each message's events and the re-read
 * read it back — statuses in the vocabulary's words, recipients spread over mailbox providers
 * and company domains, subjects of a dozen transactional kinds with words of varied frequency,
 * tags, and stream events (sent, delivery, open, click with its link, bounce…).
 *
 * Rows are generated inside the database (`generate_series`, one statement per chunk writing
 * all three tables), so nothing crosses the driver per row. When the load is larger than the
 * index already is, the secondary indexes are dropped for the load and built again after it,
 * which is several times faster than maintaining them row by row: load before the dashboard
 * serves, not beside it. Otherwise they stay.
 *
 * Deterministic for a given `seed`, project and `now` (except the times, which end at the
 * moment of the call). Ids carry a tag of project and seed, so several loads coexist.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { MESSAGE_STATUSES } from "../../lib/messages/vocabulary";
import { rowsOf } from "../../contract/db-rows";
import type { Db } from "../../lib/server/db";

export type IndexFixtureOptions = {
  projectId: string;
  messages: number;
  /** The history spans this many days, ending now (default 90). */
  days?: number;
  seed?: number;
  onProgress?: (done: number) => void;
};

/** Messages per statement: big enough to amortise, small enough for PGlite's memory and for progress. */
const CHUNK = 50_000;
const TABLES = ["indexed_messages", "indexed_recipients", "indexed_events"] as const;

/** The transactional mail of a typical product, by share (per mille). `%1$s` order/invoice number, `%2$s` first name, `%3$s` month, `%4$s` city, `%5$s` a small number. */
export const FIXTURE_KINDS = [
  { key: "order_shipped", weight: 200, from: "Acme <hello@acme.test>", subject: "Your order #%1$s has shipped", link: "https://acme.test/orders/track" },
  { key: "receipt", weight: 160, from: "Acme Billing <billing@acme.test>", subject: "Your receipt from Acme for order #%1$s", link: "https://acme.test/account/orders" },
  { key: "password_reset", weight: 100, from: "Acme <no-reply@acme.test>", subject: "Reset your password", link: "https://acme.test/reset-password" },
  { key: "welcome", weight: 80, from: "Acme <hello@acme.test>", subject: "Welcome to Acme, %2$s", link: "https://acme.test/getting-started" },
  { key: "invoice", weight: 110, from: "Acme Billing <billing@acme.test>", subject: "Invoice INV-%1$s for %3$s", link: "https://acme.test/billing/invoices" },
  { key: "sign_in", weight: 80, from: "Acme Security <security@acme.test>", subject: "New sign-in to your account from %4$s", link: "https://acme.test/account/security" },
  { key: "verify_email", weight: 70, from: "Acme <no-reply@acme.test>", subject: "Confirm your email address", link: "https://acme.test/verify" },
  { key: "weekly_summary", weight: 90, from: "Acme <hello@acme.test>", subject: "Your weekly summary: %5$s new notifications", link: "https://acme.test/notifications" },
  { key: "payment_failed", weight: 40, from: "Acme Billing <billing@acme.test>", subject: "Payment failed for invoice INV-%1$s", link: "https://acme.test/billing/update-card" },
  { key: "trial_ending", weight: 30, from: "Acme <hello@acme.test>", subject: "Your trial ends in %5$s days", link: "https://acme.test/pricing" },
  { key: "comment_reply", weight: 40, from: "Acme <notifications@acme.test>", subject: "%2$s replied to your comment", link: "https://acme.test/threads" },
] as const;

/** Words of the subjects, from common to rare, for word searches. */
export const FIXTURE_SUBJECT_WORDS = ["order", "your", "shipped", "receipt", "invoice", "password", "summary", "welcome", "sign-in", "confirm", "payment", "trial", "replied", "Lisbon", "March"];

const FIRST = ["ada", "grace", "alan", "linus", "margaret", "ken", "barbara", "dennis", "radia", "tim", "katherine", "edsger", "frances", "john", "hedy", "donald", "anita", "guido", "sophie", "bjarne", "joan", "niklaus", "lynn", "james", "mary", "claude", "annie", "vint", "evelyn", "leslie", "carol", "ivan", "jean", "ted", "shafi", "whitfield", "adele", "brian", "ruth", "yukihiro"];
const LAST = ["lovelace", "hopper", "turing", "torvalds", "hamilton", "thompson", "liskov", "ritchie", "perlman", "lee", "johnson", "dijkstra", "allen", "backus", "lamarr", "knuth", "borg", "rossum", "wilson", "stroustrup", "clarke", "wirth", "conway", "gosling", "keller", "shannon", "easley", "cerf", "boyd", "lamport", "shaw", "sutherland", "sammet", "nelson", "goldwasser", "diffie", "goldberg", "kernighan", "leach", "matsumoto"];
/** Mailbox providers by share, then company domains (one in twenty slots each). */
const DOMAINS = [
  ...Array(7).fill("gmail.com"), ...Array(3).fill("outlook.com"), ...Array(2).fill("yahoo.com"), ...Array(2).fill("icloud.com"),
  "hotmail.com", "globex.example", "initech.example", "umbrella-corp.example", "stark-industries.example", "wayne.example",
];
const CITIES = ["Lisbon", "Berlin", "Toronto", "Osaka", "Nairobi", "Lyon", "Austin", "Porto", "Seoul", "Oslo"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** Outbound outcomes by share (per 100,000): the folded status and the stream events that led there. */
const OUTCOMES = [
  { upTo: 94_000, status: "delivered", events: ["sent", "delivery"] },
  { upTo: 96_300, status: "bounced", events: ["sent", "bounce"] },
  { upTo: 96_400, status: "complained", events: ["sent", "delivery", "complaint"] },
  { upTo: 97_400, status: "rejected", events: ["rejected"] },
  { upTo: 97_800, status: "failed", events: ["failed"] },
  { upTo: 98_300, status: "delayed", events: ["sent", "delivery_delayed"] },
  { upTo: 100_000, status: "sent", events: ["sent"] },
] as const;

for (const o of OUTCOMES) if (!(MESSAGE_STATUSES as readonly string[]).includes(o.status)) throw new Error(`fixture status ${o.status} is not a vocabulary word`);

const textArray = (list: readonly string[]) => sql.raw(`array[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]::text[]`);
const lit = (s: string) => sql.raw(`'${s.replace(/'/g, "''")}'`);

/** The secondary indexes of the three tables (not primary keys), as `create index` statements. */
async function secondaryIndexes(db: Db): Promise<{ name: string; def: string }[]> {
  const rows = rowsOf<{ indexname: string; indexdef: string }>(
    await db.execute(sql`
      select i.indexname, i.indexdef from pg_indexes i
       where i.schemaname = current_schema() and i.tablename in ('indexed_messages', 'indexed_recipients', 'indexed_events')
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  );
  return rows.map((r) => ({ name: r.indexname, def: r.indexdef }));
}

async function messageCount(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from indexed_messages`));
  return Number(row?.n ?? 0);
}

/** Builds the dropped indexes again, with room to sort in memory. */
async function rebuild(db: Db, dropped: { def: string }[]): Promise<void> {
  for (const ix of dropped) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      await tx.execute(sql.raw(ix.def.replace(/^CREATE (UNIQUE )?INDEX /, "CREATE $1INDEX IF NOT EXISTS ")));
    });
  }
}

export async function loadIndexFixture(db: Db, opts: IndexFixtureOptions): Promise<{ messages: number; ms: number }> {
  return loadIndexFixtures(db, [opts]);
}

/** Several projects' histories in one load (the secondary indexes are dropped and rebuilt once). */
export async function loadIndexFixtures(db: Db, loads: IndexFixtureOptions[]): Promise<{ messages: number; ms: number }> {
  const started = performance.now();
  const total = loads.reduce((a, o) => a + Math.max(0, Math.floor(o.messages)), 0);
  if (total === 0) return { messages: 0, ms: 0 };
  // Building an index once is far cheaper than keeping it up to date row by row (trigram
  // indexes above all), so a load larger than what the index holds goes in without them.
  const dropped = (await messageCount(db)) < total ? await secondaryIndexes(db) : [];
  for (const ix of dropped) await db.execute(sql.raw(`drop index if exists "${ix.name}"`));
  try {
    for (const opts of loads) await loadOne(db, opts);
  } finally {
    await rebuild(db, dropped);
  }
  for (const table of TABLES) await db.execute(sql.raw(`analyze ${table}`));
  return { messages: total, ms: performance.now() - started };
}

async function loadOne(db: Db, opts: IndexFixtureOptions): Promise<void> {
  const n = Math.max(0, Math.floor(opts.messages));
  if (n === 0) return;
  const days = opts.days ?? 90;
  const seed = opts.seed ?? 1;
  const tag = createHash("sha256").update(`${opts.projectId}\u0000${seed}`).digest("hex").slice(0, 6);
  const salt = BigInt(seed) << 36n;
  const pool = Math.max(2_000, Math.floor(n / 4));
  const nowEpoch = Date.now() / 1000;
  const span = days * 86_400;

  {
    let kindCase = "case";
    let acc = 0;
    FIXTURE_KINDS.forEach((k, i) => {
      acc += k.weight;
      kindCase += ` when k < ${acc} then ${i + 1}`;
    });
    kindCase += ` else ${FIXTURE_KINDS.length} end`;
    let outcomeCase = "case";
    OUTCOMES.forEach((o, i) => (outcomeCase += ` when s < ${o.upTo} then ${i + 1}`));
    outcomeCase += " end";

    for (let from = 0; from < n; from += CHUNK) {
      const to = Math.min(n, from + CHUNK) - 1;
      await db.execute(sql`
        with g as (
          select i,
                 (hashint8(i * 8 + 1 + ${salt.toString()}::bigint)::bigint & 2147483647) % 1000 as k,
                 (hashint8(i * 8 + 2 + ${salt.toString()}::bigint)::bigint & 2147483647) % ${pool}::bigint as ri,
                 (hashint8(i * 8 + 3 + ${salt.toString()}::bigint)::bigint & 2147483647) % 100000 as s,
                 (hashint8(i * 8 + 4 + ${salt.toString()}::bigint)::bigint & 2147483647) % 1000 as d,
                 (hashint8(i * 8 + 5 + ${salt.toString()}::bigint)::bigint & 2147483647) % 1000 as e,
                 to_timestamp(${nowEpoch}::float8 - ${span}::float8 * (1 - (i + 0.5) / ${n}::float8)) as at
            from generate_series(${from}::bigint, ${to}::bigint) as i
        ), x as (
          select g.*, ${sql.raw(kindCase)} as kind, ${sql.raw(outcomeCase)} as outcome, d < 50 as inbound,
                 'msg_' || ${tag}::text || lpad(to_hex(i), 8, '0') as id,
                 (${textArray(FIRST)})[1 + ri % 40] || '.' || (${textArray(LAST)})[1 + (ri / 40) % 40]
                   || case when ri >= 1600 then (ri / 1600)::text else '' end
                   || '@' || (${textArray(DOMAINS)})[1 + (hashint8(ri + ${salt.toString()}::bigint)::bigint & 2147483647) % ${DOMAINS.length}] as rcpt,
                 (${textArray(FIRST)})[1 + ri % 40] as first_name
            from g
        ), y as (
          select x.*,
                 (${textArray(FIXTURE_KINDS.map((k) => k.key))})[kind] as kind_key,
                 format((${textArray(FIXTURE_KINDS.map((k) => k.subject))})[kind], 100000 + i, initcap(first_name),
                        (${textArray(MONTHS)})[1 + (i / 7) % 12], (${textArray(CITIES)})[1 + e % 10], 2 + e % 12) as base_subject,
                 (${textArray(FIXTURE_KINDS.map((k) => k.from))})[kind] as sender,
                 (${textArray(FIXTURE_KINDS.map((k) => k.link))})[kind] as link,
                 (${textArray(OUTCOMES.map((o) => o.status))})[outcome] as outbound_status,
                 -- Engagement among delivered mail: a third opened, one in ten clicked.
                 outcome = 1 and e < 330 as opened,
                 outcome = 1 and e < 100 as clicked,
                 (60 + (e * 37) % 86400) as open_after_s
            from x
        ), m as (
          select y.*,
                 case when inbound then 'inbound' else 'outbound' end as direction,
                 case when inbound then 'received' else outbound_status end as status,
                 case when inbound then rcpt else sender end as from_address,
                 case when inbound then 'support@acme.test' else rcpt end as to_address,
                 case when inbound then 'Re: ' || base_subject else base_subject end as subject,
                 case when inbound then 'webhook' when d < 600 then 'webhook' when d < 850 then 'batch' else 'dashboard' end as source,
                 case when inbound then array['inbound_received']
                      else (case outcome ${sql.raw(OUTCOMES.map((o, i) => `when ${i + 1} then array[${o.events.map((t) => `'${t}'`).join(",")}]`).join(" "))} end)
                           || case when opened then array['open'] else array[]::text[] end
                           || case when clicked then array['click'] else array[]::text[] end
                 end as events
            from y
        ), ins_messages as (
          insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, subject, tags, text,
                                        thread_id, source, created_at, last_event_at, checked_at, updated_at)
          select id, ${opts.projectId}, direction, status, from_address, jsonb_build_array(to_address), subject,
                 case when inbound then '[]'::jsonb
                      else jsonb_build_array(jsonb_build_object('name', 'category', 'value', kind_key))
                           || case when d % 3 = 0 then jsonb_build_array(jsonb_build_object('name', 'plan', 'value', (array['free', 'pro', 'team'])[1 + d % 9 / 3])) else '[]'::jsonb end
                 end,
                 case when inbound then 'Hello, ' || 'I have a question about my last order. Thanks!'
                      when source <> 'webhook' then 'Hi ' || initcap(first_name) || ', ' || subject || '. Details: ' || link else null end,
                 case when inbound then id else null end,
                 source, at,
                 at + make_interval(secs => case when clicked then open_after_s + 60 when opened then open_after_s else 8 end),
                 at + make_interval(secs => case when clicked then open_after_s + 62 when opened then open_after_s + 2 else 10 end),
                 at + make_interval(secs => case when clicked then open_after_s + 62 when opened then open_after_s + 2 else 10 end)
            from m
        ), ins_recipients as (
          insert into indexed_recipients (message_id, project_id, email, role, created_at)
          select id, ${opts.projectId}, lower(regexp_replace(from_address, '^.*<([^<>]+)>\\s*$', '\\1')), 'from', at from m
          union all
          select id, ${opts.projectId}, to_address, 'to', at from m
        )
        insert into indexed_events (message_id, project_id, type, occurred_at, data, webhook_id, origin)
        select m.id, ${opts.projectId}, ev.type,
               m.at + make_interval(secs => case ev.type when 'open' then open_after_s when 'click' then open_after_s + 60 else 2 + ev.n * 3 end),
               case ev.type
                 when 'sent' then jsonb_build_object('recipients', jsonb_build_array(to_address))
                 when 'delivery' then jsonb_build_object('recipient', to_address, 'diagnostic', '250 2.0.0 OK')
                 when 'open' then jsonb_build_object('recipient', to_address, 'userAgent', 'Mozilla/5.0')
                 when 'click' then jsonb_build_object('recipient', to_address, 'link', link, 'userAgent', 'Mozilla/5.0')
                 when 'bounce' then jsonb_build_object('recipient', to_address, 'bounceType', 'hard', 'diagnostic', '550 5.1.1 <' || to_address || '>: Recipient address rejected: User unknown')
                 when 'complaint' then jsonb_build_object('recipient', to_address, 'feedbackType', 'abuse')
                 when 'rejected' then jsonb_build_object('recipient', to_address, 'reason', 'policy', 'diagnostic', '554 5.7.1 Message rejected by policy')
                 when 'failed' then jsonb_build_object('recipient', to_address, 'error', 'Connection timed out')
                 when 'delivery_delayed' then jsonb_build_object('recipient', to_address, 'cause', 'greylisted', 'diagnostic', '451 4.7.1 Greylisted, please try again later')
                 else '{}'::jsonb
               end,
               'whd_' || ${tag}::text || lpad(to_hex(m.i), 8, '0') || lpad(ev.n::text, 2, '0'), 'stream'
          from m cross join lateral unnest(m.events) with ordinality as ev(type, n)`);
      opts.onProgress?.(to + 1);
    }
  }
}

/** Bytes of the index's tables with their indexes (and TOAST), and of their indexes alone. */
export async function indexSize(db: Db): Promise<{ total: number; indexes: number; tables: Record<string, { total: number; indexes: number; rows: number }> }> {
  const tables: Record<string, { total: number; indexes: number; rows: number }> = {};
  for (const t of TABLES) {
    const [row] = rowsOf<{ total: string; indexes: string; rows: string }>(
      await db.execute(sql`select pg_total_relation_size(${lit(t)}::regclass) as total, pg_indexes_size(${lit(t)}::regclass) as indexes,
                                  (select reltuples from pg_class where oid = ${lit(t)}::regclass)::bigint as rows`),
    );
    tables[t] = { total: Number(row!.total), indexes: Number(row!.indexes), rows: Number(row!.rows) };
  }
  const values = Object.values(tables);
  return { total: values.reduce((a, v) => a + v.total, 0), indexes: values.reduce((a, v) => a + v.indexes, 0), tables };
}
