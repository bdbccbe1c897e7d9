import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { Gauge } from "prom-client";
import { rowsOf } from "@/contract/db-rows";
import { levelRank } from "@/lib/insight/thresholds";
import { STREAM_MODE_CODES } from "@/lib/schemas/event-stream";
import { db } from "@/lib/server/db";
import { PREFIX, series } from "./registry";

/**
 * The gauges that only the database knows (the re-read queue, alert levels, the insight
 * refresher's lag, each project's stream mode as the latest reconciler pass kept it), read at scrape time — never per request. Each is one cheap statement
 * (a count of a queue, a row by the primary key, a row per project and metric), given
 * QUERY_TIMEOUT_MS; one that fails or runs late leaves its gauges as they were and counts in
 * `metrics_collect_failures_total`, and the scrape answers anyway. Scrapes that come together
 * share one read, so any number of them costs the database one set of statements.
 *
 * They describe the shared database, so every instance reports the same values.
 */
export const QUERY_TIMEOUT_MS = 1_000;

type Gauges = { rereadDepth: Gauge; rereadAge: Gauge; alertLevel: Gauge<"project" | "metric">; insightLag: Gauge };
type State = { gauges: Gauges; reading: Promise<void> | null };
const KEY = Symbol.for("mail-dashboard.metrics.database-gauges");

function state(): State {
  const holder = globalThis as { [KEY]?: State };
  if (holder[KEY]) return holder[KEY];
  const on = { registers: [series().registry] };
  const gauges: Gauges = {
    rereadDepth: new Gauge({ name: `${PREFIX}reread_queue_depth`, help: "Messages waiting in the re-read queue (all instances).", ...on }),
    rereadAge: new Gauge({ name: `${PREFIX}reread_queue_oldest_age_seconds`, help: "Age of the oldest entry in the re-read queue; 0 when it is empty.", ...on }),
    alertLevel: new Gauge({ name: `${PREFIX}alert_level`, help: "Each project's alert level per metric: 0 ok, 1 warning, 2 limit.", labelNames: ["project", "metric"] as const, ...on }),
    insightLag: new Gauge({ name: `${PREFIX}insight_refresh_lag_seconds`, help: "Age of the oldest change the insight refresher has not folded into the rollups yet; 0 when none waits.", ...on }),
  };
  return (holder[KEY] = { gauges, reading: null });
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Math.max(0, Number(v)));

/**
 * Statements still running, by collector. A late statement cannot be taken back (PGlite has
 * no cancel), so the next scrape skips its collector until it ends: at most one statement of
 * each kind in the database at any time, however often anyone scrapes.
 */
const KEY_RUNNING = Symbol.for("mail-dashboard.metrics.running");
const running = () => ((globalThis as { [KEY_RUNNING]?: Set<string> })[KEY_RUNNING] ??= new Set());

/** One statement under a deadline: the rows, or null (counted) when it failed, was late or is still running from before. */
async function read(collector: string, statement: SQL): Promise<Record<string, unknown>[] | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (running().has(collector)) throw new Error(`${collector}: the last statement is still running`);
    running().add(collector);
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${collector}: no answer within ${QUERY_TIMEOUT_MS} ms`)), QUERY_TIMEOUT_MS);
    });
    const run = (async () => rowsOf<Record<string, unknown>>(await (await db()).execute(statement)))();
    // Its own failure after the deadline answered is swallowed; either way the collector is free again when it ends.
    run.catch(() => {}).finally(() => running().delete(collector));
    return await Promise.race([run, late]);
  } catch {
    series().collectorFailures.inc({ collector });
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function readAll(g: Gauges): Promise<void> {
  const [queue, alerts, insight, modes] = await Promise.all([
    read("reread_queue", sql`select count(*) as depth, extract(epoch from now() - min(created_at)) as age from message_rereads`),
    read("alert_level", sql`select p.external_id as project, s.metric, s.level from alert_states s join projects p on p.id = s.project_id`),
    // The queue's oldest mark by its primary key (marks are numbered as they come): no scan.
    read("insight_lag", sql`select extract(epoch from now() - marked_at) as lag from insight_dirty order by seq limit 1`),
    // A row per project, written by whichever instance ran the pass (lib/server/event-stream/reconciler.ts).
    read("stream_mode", sql`select p.external_id as project, m.code from event_stream_modes m join projects p on p.id = m.project_id`),
  ]);
  if (queue?.[0]) {
    g.rereadDepth.set(num(queue[0].depth));
    g.rereadAge.set(num(queue[0].age));
  }
  if (alerts) {
    // Reset first: a removed project's series go with it.
    g.alertLevel.reset();
    for (const r of alerts) g.alertLevel.set({ project: String(r.project), metric: String(r.metric) }, levelRank(String(r.level)));
  }
  // No row: nothing waits.
  if (insight) g.insightLag.set(num(insight[0]?.lag));
  if (modes) {
    // 1 for its mode, 0 for the others (a graph then shows the switch); reset: a removed project's series go.
    const gauge = series().streamMode;
    gauge.reset();
    for (const r of modes) for (const mode of STREAM_MODE_CODES) gauge.set({ project: String(r.project), mode }, mode === r.code ? 1 : 0);
  }
}

/** Brings the database gauges up to date before a scrape; concurrent callers share one read. */
export function refreshDatabaseGauges(): Promise<void> {
  const s = state();
  s.reading ??= readAll(s.gauges).finally(() => {
    s.reading = null;
  });
  return s.reading;
}
