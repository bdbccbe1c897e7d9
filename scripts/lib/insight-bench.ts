/**
 * bench:insight's sections for the insight figures (imported by scripts/bench-insight.ts, in
 * its react-server child process):
 *
 *   index   1,000,000 outbound messages of one project in the last 30 days (plus 100,000 of a
 *           second project) written straight into a fresh on-disk PGlite index with
 *           generate_series — statuses, recipients over the big providers and company domains
 *           (Yahoo bouncing more), open and click events (some twice, as the stream and a read
 *           both record them) — then the rollups built from it; prints load and build times,
 *           sizes, and p50/p95 of the overview's figures, the provider table, the top links and
 *           one alert check over every project, and the Tags screen's read (50 tag values), each
 *           against its 200 ms target.
 *   ingest  the per-event cost of the stream's write path (recordEvent) and the share of it the
 *           insight mark takes, and how fast the refresher folds marked messages into the rollups.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

type Timer = (fn: () => unknown, runs: number, warmup?: number) => Promise<{ median: number; p95: number }>;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const TARGET_MS = 200;
const loadAverage = () => os.loadavg()[0]!.toFixed(1);

function benchEnv() {
  Object.assign(process.env, {
    SERVICE_URL: "http://127.0.0.1:9",
    SERVICE_API_KEY: "bench",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    ALERT_MIN_VOLUME: "100",
  });
}

/** Where the index section runs: a fresh PGlite folder, or the Postgres database at `url` (kept; loaded only if empty). */
export type IndexTarget = { postgres?: string; buildSeconds?: number; buildOnly?: boolean };

async function postgresDb(url: string) {
  const { openDatabase, installDb, closeDb } = await import("@/lib/server/db");
  installDb(await openDatabase({ url }));
  const { db } = await import("@/lib/server/db");
  return { db: await db(), close: () => closeDb() };
}

async function freshDb(prefix: string) {
  const { openDatabase, installDb, closeDb } = await import("@/lib/server/db");
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const handle = await openDatabase({ dataDir: dir });
  installDb(handle);
  return {
    db: handle.db,
    close: async () => {
      await closeDb();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Recipient domains, weighted by repetition: consumer domains of the big providers and company domains. */
const DOMAINS = [
  ...Array(9).fill("gmail.com"), "googlemail.com",
  ...Array(3).fill("outlook.com"), ...Array(2).fill("hotmail.com"), "live.com",
  ...Array(3).fill("yahoo.com"), "aol.com",
  ...Array(2).fill("icloud.com"), "me.com",
  ...Array.from({ length: 8 }, (_, i) => `company-${i}.test`),
];
/** Tag values: every message carries one of them (category=kind-N), for the Tags screen's read. */
const TAG_VALUES = 50;
const LINKS = ["https://shop.acme.test/sale", "https://shop.acme.test/new", "https://acme.test/account", "https://acme.test/help", "https://shop.acme.test/p/kettle"];

export async function indexSection(N: number, time: Timer, total = 1_000_000, target: IndexTarget = {}): Promise<void> {
  benchEnv();
  const { sql, inArray } = await import("drizzle-orm");
  const { rowsOf } = await import("@/contract/db-rows");
  const { projects } = await import("@/lib/server/db/schema/core");
  const { markAllOnce } = await import("@/lib/server/insight/dirty");
  const { refreshInsight } = await import("@/lib/server/insight/refresh");
  const { overviewFigures } = await import("@/lib/server/overview");
  const { getDeliverability } = await import("@/lib/server/alerts/deliverability");
  const { topLinks } = await import("@/lib/server/insight/links");
  const { evaluateAlerts } = await import("@/lib/server/alerts/evaluate");
  const { getTagFigures } = await import("@/lib/server/alerts/tag-figures");
  const { consumerProvider } = await import("@/lib/insight/providers");

  const where = target.postgres ? `Postgres (${new URL(target.postgres).pathname.slice(1)}, kept)` : "PGlite on disk";
  console.log(`\n## index: ${total.toLocaleString("en")} messages of one project in 30 days (+${(total / 10).toLocaleString("en")} of another), ${where}; target p95 ${TARGET_MS} ms; load average ${loadAverage()}`);
  const { db, close } = target.postgres ? await postgresDb(target.postgres) : await freshDb("bench-insight-");
  try {
    // A Postgres database loaded by an earlier run (its load is long) is used as it is: the
    // build goes on from the marks it left, so a build cut short by --build-seconds resumes.
    const existing = await db.select().from(projects).where(inArray(projects.externalId, ["bench-main", "bench-other"]));
    const reuse = existing.length === 2;
    const [main, other] = reuse
      ? ["bench-main", "bench-other"].map((x) => existing.find((p) => p.externalId === x)!)
      : await db.insert(projects).values([{ externalId: "bench-main", name: "Main" }, { externalId: "bench-other", name: "Other" }]).returning();
    const domains = sql.raw(`array[${DOMAINS.map((d) => `'${d}'`).join(",")}]`);
    const links = sql.raw(`array[${LINKS.map((l) => `'${l}?utm_source=mail'`).join(",")}]`);
    const loadStarted = performance.now();
    const fill = async (projectId: string, prefix: string, count: number) => {
      for (let start = 0; start < count; start += 100_000) {
        const end = Math.min(count, start + 100_000);
        // One message: a recipient (some addresses come back often), a time in the last 30 days,
        // an outcome — Yahoo bounces three times as often as the rest. Then its opens (~40 % of
        // the delivered) and clicks (~8 %), a third of them recorded twice (stream and read).
        await db.execute(sql`
          with added as (
            insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, subject, tags, source, created_at, last_event_at)
            select ${prefix} || g, ${projectId}, 'outbound',
                   case when r < (case when d like 'yahoo%' or d = 'aol.com' then 0.06 else 0.02 end) then 'bounced'
                        when r < 0.0708 then 'complained' when r < 0.08 then 'rejected' when r < 0.085 then 'failed' when r < 0.09 then 'sent'
                        else 'delivered' end,
                   'Acme <hello@acme.test>', jsonb_build_array('user' || (g % 150000) || '@' || d), 'Order ' || g,
                   jsonb_build_array(jsonb_build_object('name', 'category', 'value', 'kind-' || (g % ${String(TAG_VALUES)}::int))), 'webhook', at, at
              from (select g, random() as r, (${domains})[1 + floor(random() * ${String(DOMAINS.length)}::int)::int] as d,
                           now() - random() * interval '30 days' as at
                      from generate_series(${String(start)}::int, ${String(end - 1)}::int) g) x
            returning id, project_id, status, created_at
          )
          insert into indexed_events (message_id, project_id, type, occurred_at, data, webhook_id, origin)
          select m.id, m.project_id, t.type, m.created_at + interval '5 minutes',
                 case when t.type = 'click' then jsonb_build_object('link', (${links})[1 + (k.h % ${String(LINKS.length)}::int)]) else '{}'::jsonb end,
                 o.origin || ':' || m.id || ':' || t.type, o.origin
            from added m
            cross join lateral (select abs(hashtext(m.id || 'x')) % 1000 as h) k
            cross join lateral (values ('open'), ('click')) t(type)
            cross join lateral (values ('stream'), ('read')) o(origin)
           where m.status = 'delivered'
             and ((t.type = 'open' and k.h < 400) or (t.type = 'click' and k.h < 80))
             and (o.origin = 'stream' or k.h % 3 = 0)`);
      }
    };
    if (!reuse) {
      await fill(main!.id, "m", total);
      await fill(other!.id, "o", total / 10);
      // Recipient domains as the lookups would have left them: consumer ones by the list, company ones by MX.
      const values = [...new Set(DOMAINS)].map((d, i) => `('${d}', '${consumerProvider(d) ?? (i % 2 ? "gmail" : "other")}', 'list', now() + interval '30 days')`).join(",");
      await db.execute(sql.raw(`insert into insight_domains (domain, provider, source, expires_at) values ${values}`));
      await db.execute(sql`analyze`);
    }
    const loaded = performance.now() - loadStarted;
    const counts = rowsOf<{ messages: number; events: number }>(await db.execute(sql`select (select count(*) from indexed_messages)::int as messages, (select count(*) from indexed_events)::int as events`))[0]!;
    console.log(`  ${reuse ? "found" : "loaded"} ${counts.messages.toLocaleString("en")} messages and ${counts.events.toLocaleString("en")} open/click events${reuse ? "" : ` in ${(loaded / 1000).toFixed(1)} s`}; load average ${loadAverage()}`);

    const built = performance.now();
    const marked = await markAllOnce(db);
    // In steps, printing the rate as it goes (a build at 10,000,000 takes long), and stopping
    // after --build-seconds if given: the figures are then timed on the part built so far.
    const deadline = target.buildSeconds === undefined ? Infinity : built + target.buildSeconds * 1000;
    let refreshed = 0;
    while (performance.now() < deadline) {
      const step = await refreshInsight({ batchSize: 20_000, maxBatches: 5, stopWhen: () => performance.now() > deadline });
      refreshed += step;
      const seconds = (performance.now() - built) / 1000;
      console.log(`    ${refreshed.toLocaleString("en")} refreshed in ${seconds.toFixed(0)} s (${Math.round(refreshed / seconds).toLocaleString("en")} messages/s; load average ${loadAverage()})`);
      if (step < 100_000) break;
    }
    await db.execute(sql`analyze`);
    const buildMs = performance.now() - built;
    const left = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from insight_dirty`))[0]!.n;
    console.log(`  rollups built from ${marked ? `${marked.toLocaleString("en")} marked messages` : "the marks an earlier run left"} (${refreshed.toLocaleString("en")} refreshed${left ? `, ${left.toLocaleString("en")} marks left: stopped by --build-seconds` : ""}) in ${(buildMs / 1000).toFixed(1)} s: ${Math.round(refreshed / (buildMs / 1000)).toLocaleString("en")} messages/s`);
    const sizes = rowsOf<Record<string, string>>(
      await db.execute(sql`
        select pg_size_pretty(pg_database_size(current_database())) as database,
               pg_size_pretty(pg_total_relation_size('indexed_messages')) as messages,
               pg_size_pretty(pg_total_relation_size('indexed_events')) as events,
               pg_size_pretty(pg_total_relation_size('insight_facts')) as facts,
               pg_size_pretty(pg_total_relation_size('insight_hourly') + pg_total_relation_size('insight_link_hourly') + pg_total_relation_size('insight_link_clicks') + pg_total_relation_size('insight_link_recipients')) as rollups,
               pg_size_pretty(pg_total_relation_size('insight_tag_facts') + pg_total_relation_size('insight_tag_hourly')) as tag_tables,
               (select count(*) from insight_tag_hourly)::text as tag_hourly_rows,
               (select count(*) from insight_hourly)::text as hourly_rows`),
    )[0]!;
    console.log(`  sizes: database ${sizes.database}; indexed_messages ${sizes.messages}, indexed_events ${sizes.events}; insight_facts ${sizes.facts}, rollups and link tables ${sizes.rollups} (${sizes.hourly_rows} hourly rows); tag facts and rollup ${sizes.tag_tables} (${sizes.tag_hourly_rows} hourly rows)`);

    if (target.buildOnly) return;
    const project = { id: main!.id, externalId: main!.externalId, name: main!.name, createdAt: main!.createdAt.toISOString() };
    const now = () => new Date();
    const cases: [string, () => Promise<unknown>][] = [
      ["overview (counts 24 h/7 d/30 d, 30-day series, top links)", () => overviewFigures(project, "30d", now())],
      ["provider table, 30 days", () => getDeliverability(project, "30d", now())],
      ["top links, 30 days", () => topLinks(project.id, new Date(Date.now() - 30 * 86_400_000), now())],
      ["one alert check (every project)", () => evaluateAlerts()],
      [`tags screen, 30 days (${TAG_VALUES} tag values)`, () => getTagFigures(project, "30d", now())],
      ["tags screen, 7 days", () => getTagFigures(project, "7d", now())],
      ["tags screen, 24 hours", () => getTagFigures(project, "24h", now())],
    ];
    const sample = await overviewFigures(project, "30d", now());
    const providers = await getDeliverability(project, "30d", now());
    const tagSample = await getTagFigures(project, "30d", now());
    console.log(
      `  check: 30 d sent ${sample.counts["30d"].sent.toLocaleString("en")}, opened ${sample.engagement["30d"].opened.toLocaleString("en")}, clicked ${sample.engagement["30d"].clicked.toLocaleString("en")}; flagged: ${providers.flags.map((f) => f.text.split(":")[0]).join("; ") || "none"}; ${tagSample.tags.length} tag rows, their sent adding up to ${tagSample.tags.reduce((n, t) => n + t.sent, 0).toLocaleString("en")}`,
    );
    for (const [label, run] of cases) {
      const { median, p95 } = await time(run, N);
      console.log(`  ${label.padEnd(58)} p50 ${ms(median).padStart(9)}   p95 ${ms(p95).padStart(9)} → ${(p95 / TARGET_MS).toFixed(2)}x the target (load average ${loadAverage()})`);
    }
  } finally {
    await close();
  }
}

export async function ingestSection(_N: number, time: Timer): Promise<void> {
  benchEnv();
  const { sql } = await import("drizzle-orm");
  const { projects } = await import("@/lib/server/db/schema/core");
  const { recordEvent } = await import("@/lib/server/message-index/record-event");
  const { markInsightDirty } = await import("@/lib/server/insight/dirty");
  const { refreshInsight } = await import("@/lib/server/insight/refresh");
  const EVENTS = 4000;
  console.log(`\n## ingest: ${EVENTS.toLocaleString("en")} stream events (1,000 messages × sent, delivery, open, click) through recordEvent, PGlite on disk`);
  const { db, close } = await freshDb("bench-ingest-");
  try {
    const [project] = await db.insert(projects).values({ externalId: "bench-ingest", name: "Ingest" }).returning();
    const types = ["sent", "delivery", "open", "click"];
    let n = 0;
    const started = performance.now();
    for (const type of types) {
      for (let i = 0; i < EVENTS / types.length; i++) {
        const at = new Date();
        await recordEvent(project!.id, `wh-${n++}`, { messageId: `msg-${i}`, type, occurredAt: at, direction: "outbound", from: "Acme <hello@acme.test>", to: [`user${i}@gmail.com`], subject: "Hi", text: null, html: null, details: type === "click" ? { link: "https://acme.test/a" } : {} }, 60_000);
      }
    }
    const perEvent = (performance.now() - started) / EVENTS;
    // The mark alone, in a transaction of its own per event as recordEvent's: its share of the cost.
    const mark = await time(() => db.transaction((tx) => markInsightDirty(tx, project!.id, [`msg-${Math.floor(Math.random() * 1000)}`])), 500, 20);
    const bare = await time(() => db.transaction(async (tx) => void (await tx.execute(sql`select 1`))), 500, 20);
    const refreshStarted = performance.now();
    const refreshed = await refreshInsight();
    const refreshMs = performance.now() - refreshStarted;
    console.log(`  recordEvent: ${perEvent.toFixed(2)} ms per event (${Math.round(1000 / perEvent)} events/s, one at a time)`);
    console.log(`  insight mark: ${(mark.median - bare.median).toFixed(3)} ms per event (median of a transaction with the mark ${ms(mark.median)} minus an empty one ${ms(bare.median)}) → ${(((mark.median - bare.median) / perEvent) * 100).toFixed(1)} % of recordEvent`);
    console.log(`  refresher: ${refreshed.toLocaleString("en")} marked messages folded into the rollups in ${ms(refreshMs)} (${Math.round(refreshed / (refreshMs / 1000)).toLocaleString("en")} messages/s, in the background)`);
  } finally {
    await close();
  }
}
