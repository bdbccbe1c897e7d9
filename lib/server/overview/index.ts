import "server-only";
import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { Domain } from "@/lib/schemas";
import type { AuditEntry } from "@/lib/schemas/audit";
import { listAudit } from "../audit";
import { getStreamStatus } from "../event-stream/status";
import { db } from "../db";
import { indexedMessages } from "../db/schema/messages";
import type { Project } from "../guard";
import { service } from "../service/index";
import { OVERVIEW_RANGES, type OverviewCounts, type OverviewData, type OverviewRange, type SeriesPoint } from "./types";

export * from "./types";

const HOUR = 3_600_000;
const RANGE_MS: Record<OverviewRange, number> = { "24h": 24 * HOUR, "7d": 7 * 24 * HOUR, "30d": 30 * 24 * HOUR };

/**
 * Counts of one window, from the message index. Statuses are folded (lib/server/messages/fold.ts):
 * a complained message was delivered first, so it counts as delivered too; "sent" is every
 * outbound message accepted in the window except those still waiting for their scheduled time.
 */
// Raw sql parameters get no column type: postgres-js needs a string, not a Date.
const tsParam = (d: Date) => sql`${d.toISOString()}::timestamptz`;

const countsSql = (since: Date) => ({
  sent: sql<number>`count(*) filter (where ${indexedMessages.createdAt} >= ${tsParam(since)})`.mapWith(Number),
  delivered: sql<number>`count(*) filter (where ${indexedMessages.createdAt} >= ${tsParam(since)} and ${indexedMessages.status} in ('delivered','complained'))`.mapWith(Number),
  bounced: sql<number>`count(*) filter (where ${indexedMessages.createdAt} >= ${tsParam(since)} and ${indexedMessages.status} = 'bounced')`.mapWith(Number),
  complained: sql<number>`count(*) filter (where ${indexedMessages.createdAt} >= ${tsParam(since)} and ${indexedMessages.status} = 'complained')`.mapWith(Number),
  rejected: sql<number>`count(*) filter (where ${indexedMessages.createdAt} >= ${tsParam(since)} and ${indexedMessages.status} = 'rejected')`.mapWith(Number),
});

const notWaiting = (now: Date) => sql`(${indexedMessages.scheduledAt} is null or ${indexedMessages.scheduledAt} <= ${tsParam(now)})`;

export async function overviewCounts(project: Project, now = new Date()): Promise<Record<OverviewRange, OverviewCounts>> {
  const d = await db();
  const since = (r: OverviewRange) => new Date(now.getTime() - RANGE_MS[r]);
  const [row] = await d
    .select({
      ...prefixed("d", countsSql(since("24h"))),
      ...prefixed("w", countsSql(since("7d"))),
      ...prefixed("m", countsSql(since("30d"))),
    })
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, project.id), eq(indexedMessages.direction, "outbound"), gte(indexedMessages.createdAt, since("30d")), notWaiting(now)));
  const pick = (p: string): OverviewCounts => ({
    sent: row?.[`${p}sent`] ?? 0,
    delivered: row?.[`${p}delivered`] ?? 0,
    bounced: row?.[`${p}bounced`] ?? 0,
    complained: row?.[`${p}complained`] ?? 0,
    rejected: row?.[`${p}rejected`] ?? 0,
  });
  return { "24h": pick("d"), "7d": pick("w"), "30d": pick("m") };
}

function prefixed<T extends Record<string, unknown>>(p: string, o: T): Record<string, T[keyof T]> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [`${p}${k}`, v])) as Record<string, T[keyof T]>;
}

/** Hourly buckets for 24 h, daily for 7 and 30 days (UTC), with empty buckets filled in. */
export async function overviewSeries(project: Project, range: OverviewRange, now = new Date()): Promise<SeriesPoint[]> {
  const unit = range === "24h" ? "hour" : "day";
  const step = range === "24h" ? HOUR : 24 * HOUR;
  const since = new Date(now.getTime() - RANGE_MS[range]);
  const bucket = sql<string>`to_char(date_trunc(${sql.raw(`'${unit}'`)}, ${indexedMessages.createdAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`;
  const d = await db();
  const rows = await d
    .select({ bucket, ...countsSql(since) })
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, project.id), eq(indexedMessages.direction, "outbound"), gte(indexedMessages.createdAt, since), notWaiting(now)))
    .groupBy(bucket);
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  const start = Math.floor(since.getTime() / step) * step;
  const points: SeriesPoint[] = [];
  for (let t = start; t <= now.getTime(); t += step) {
    const key = new Date(t).toISOString().replace(".000Z", "Z");
    const r = byBucket.get(key);
    points.push({ at: key, sent: r?.sent ?? 0, delivered: r?.delivered ?? 0, bounced: r?.bounced ?? 0, complained: r?.complained ?? 0, rejected: r?.rejected ?? 0 });
  }
  return points;
}

export async function upcomingScheduled(project: Project, now = new Date()) {
  const d = await db();
  const rows = await d
    .select({ id: indexedMessages.id, to: indexedMessages.to, subject: indexedMessages.subject, scheduledAt: indexedMessages.scheduledAt, status: indexedMessages.status })
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, project.id), gt(indexedMessages.scheduledAt, now)))
    .orderBy(asc(indexedMessages.scheduledAt))
    .limit(5);
  return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, status: r.status, scheduledAt: r.scheduledAt!.toISOString() }));
}

/**
 * Pending and failed domains, first page of each: the overview only needs to say "these".
 * The statuses are the ones the domains screen shows (derived from the records when the
 * service gives none, lib/domains/status.ts), so a domain whose records are all verified
 * never appears here, whatever the service's filter returned.
 */
async function unverifiedDomains(project: Project): Promise<{ data: Domain[]; error: string | null }> {
  try {
    const [pending, failed] = await Promise.all([
      service.domains.list(project.externalId, { status: "pending", limit: 10 }),
      service.domains.list(project.externalId, { status: "failed", limit: 10 }),
    ]);
    const seen = new Set<string>();
    const data = [...pending.data, ...failed.data].filter((d) => !seen.has(d.id) && seen.add(d.id));
    return { data, error: null };
  } catch (e) {
    return { data: [], error: e instanceof AppError ? e.message : "The domains could not be read." };
  }
}

async function recentActivity(project: Project): Promise<AuditEntry[]> {
  return (await listAudit({ project: project.externalId, limit: 8 })).data;
}

export async function getOverview(project: Project, range: OverviewRange = "7d"): Promise<OverviewData> {
  if (!OVERVIEW_RANGES.includes(range)) range = "7d";
  const now = new Date();
  const [counts, series, scheduled, domains, activity, stream] = await Promise.all([
    overviewCounts(project, now),
    overviewSeries(project, range, now),
    upcomingScheduled(project, now),
    unverifiedDomains(project),
    recentActivity(project),
    getStreamStatus(project).catch(() => null),
  ]);
  return { range, generatedAt: now.toISOString(), counts, series, scheduled, unverifiedDomains: domains.data, domainsError: domains.error, activity, stream };
}
