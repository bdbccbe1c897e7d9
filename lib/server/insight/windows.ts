import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { db, type Db } from "@/lib/server/db";

/**
 * Totals of a project's messages over windows that end now ("the last 24 hours"), from the
 * hourly rollup for the whole hours inside the window and from the per-message facts for the
 * two partial hours at its edges — exact to the millisecond, and a few thousand rows read
 * at most whatever the volume.
 */
export const TOTAL_KEYS = ["sent", "delivered", "bounced", "complained", "rejected", "failed", "opened", "clicked"] as const;
export type TotalKey = (typeof TOTAL_KEYS)[number];
export type Totals = Record<TotalKey, number>;

export const emptyTotals = (): Totals => ({ sent: 0, delivered: 0, bounced: 0, complained: 0, rejected: 0, failed: 0, opened: 0, clicked: 0 });

const HOUR = 3_600_000;
const floorHour = (t: number) => Math.floor(t / HOUR) * HOUR;
const ceilHour = (t: number) => Math.ceil(t / HOUR) * HOUR;
export const ts = (t: number | Date) => sql`${new Date(t).toISOString()}::timestamptz`;

/** What each total counts among the facts. */
const FACT_CONDITION: Record<TotalKey, string> = {
  sent: "true",
  delivered: "outcome in ('delivered', 'complained')",
  bounced: "outcome = 'bounced'",
  complained: "outcome = 'complained'",
  rejected: "outcome = 'rejected'",
  failed: "outcome = 'failed'",
  opened: "opened",
  clicked: "clicked",
};

type Window = { since: number; edgeEnd: number };

export async function windowTotals(
  projectId: string,
  sinceMs: number[],
  now: Date,
  opts: { byProvider?: boolean; byTag?: boolean; d?: Db } = {},
): Promise<Map<string, Totals[]>> {
  const d = opts.d ?? (await db());
  const nowMs = now.getTime();
  const currentHour = floorHour(nowMs);
  const windows: Window[] = sinceMs.map((since) => ({ since, edgeEnd: Math.min(ceilHour(since), currentHour) }));
  const earliestFull = Math.min(...windows.map((w) => w.edgeEnd));
  // By tag: the tag rollup and its facts (lib/server/insight/tag-refresh.ts), grouped by the pair as a JSON array.
  // Grouped by the columns, the key built once per group: built per row, it took most of a 30-day read (36,000 rows at 50 tags).
  const group = sql.raw(opts.byTag ? "json_build_array(name, value)::text" : opts.byProvider ? "provider" : "'all'");
  const groupBy = sql.raw(opts.byTag ? "name, value" : "grp");
  const [rollup, facts] = opts.byTag ? [sql.raw("insight_tag_hourly"), sql.raw("insight_tag_facts")] : [sql.raw("insight_hourly"), sql.raw("insight_facts")];

  const rollupColumns: SQL[] = [];
  const factColumns: SQL[] = [];
  windows.forEach((w, i) => {
    for (const key of TOTAL_KEYS) {
      // One window: the WHERE already holds its hours, so no filter to evaluate per row.
      const sum = windows.length === 1 ? sql`sum(${sql.raw(key)})` : sql`sum(${sql.raw(key)}) filter (where hour >= ${ts(w.edgeEnd)})`;
      rollupColumns.push(sql`coalesce(${sum}, 0)::int as ${sql.raw(`w${i}_${key}`)}`);
      const inEdges = sql`((at >= ${ts(w.since)} and at < ${ts(w.edgeEnd)}) or (at >= ${ts(currentHour)} and at <= ${ts(nowMs)}))`;
      factColumns.push(sql`(count(*) filter (where ${inEdges} and ${sql.raw(FACT_CONDITION[key])}))::int as ${sql.raw(`w${i}_${key}`)}`);
    }
  });
  const anyEdge = sql.join(
    [...windows.map((w) => sql`(at >= ${ts(w.since)} and at < ${ts(w.edgeEnd)})`), sql`(at >= ${ts(currentHour)} and at <= ${ts(nowMs)})`],
    sql` or `,
  );
  const [full, edges] = await Promise.all([
    d.execute(sql`
      select ${group} as grp, ${sql.join(rollupColumns, sql`, `)}
        from ${rollup}
       where project_id = ${projectId} and hour >= ${ts(earliestFull)} and hour < ${ts(currentHour)}
       group by ${groupBy}`),
    d.execute(sql`
      select ${group} as grp, ${sql.join(factColumns, sql`, `)}
        from ${facts}
       where project_id = ${projectId} and (${anyEdge})
       group by ${groupBy}`),
  ]);
  const out = new Map<string, Totals[]>();
  for (const row of [...rowsOf<Record<string, unknown>>(full), ...rowsOf<Record<string, unknown>>(edges)]) {
    const key = String(row.grp);
    const list = out.get(key) ?? windows.map(emptyTotals);
    windows.forEach((_, i) => {
      for (const k of TOTAL_KEYS) list[i]![k] += Number(row[`w${i}_${k}`] ?? 0);
    });
    out.set(key, list);
  }
  return out;
}

/** The project's totals over each window (all providers together). */
export async function projectTotals(projectId: string, sinceMs: number[], now: Date, d?: Db): Promise<Totals[]> {
  const byGroup = await windowTotals(projectId, sinceMs, now, { d });
  return byGroup.get("all") ?? sinceMs.map(emptyTotals);
}

/** Totals per UTC hour or day bucket of the rollup, from `since` to now. */
export async function seriesTotals(projectId: string, unit: "hour" | "day", since: Date, now: Date, d?: Db): Promise<Map<string, Totals>> {
  const database = d ?? (await db());
  const bucket = sql.raw(`to_char(date_trunc('${unit}', hour at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`);
  const start = unit === "hour" ? floorHour(since.getTime()) : Math.floor(since.getTime() / (24 * HOUR)) * 24 * HOUR;
  const rows = rowsOf<Record<string, unknown>>(
    await database.execute(sql`
      select ${bucket} as bucket, ${sql.join(TOTAL_KEYS.map((k) => sql`sum(${sql.raw(k)})::int as ${sql.raw(k)}`), sql`, `)}
        from insight_hourly
       where project_id = ${projectId} and hour >= ${ts(start)} and hour <= ${ts(now)}
       group by bucket`),
  );
  return new Map(rows.map((r) => [String(r.bucket), Object.fromEntries(TOTAL_KEYS.map((k) => [k, Number(r[k] ?? 0)])) as Totals]));
}
