import "server-only";
import { and, asc, eq, gt } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { Domain } from "@/lib/schemas/domains";
import type { AuditEntry } from "@/lib/schemas/audit";
import { RANGE_MS } from "@/lib/insight/ranges";
import { projectThresholds } from "./alerts/settings";
import { listAudit } from "./audit";
import { getStreamStatus } from "./event-stream/status";
import { db } from "./db";
import { indexedMessages } from "./db/schema/messages";
import type { Project } from "./gate/guard";
import { topLinks } from "./insight/links";
import { catchUpInsight } from "./insight/read";
import { projectTotals, seriesTotals, type Totals } from "./insight/windows";
import { service } from "./service/index";
import {
  OVERVIEW_RANGES,
  type EngagementCounts,
  type OverviewCounts,
  type OverviewData,
  type OverviewRange,
  type SeriesPoint,
} from "@/lib/schemas/overview";

/** The route and the page shell validate the range against these. */
export { OVERVIEW_RANGES, type OverviewRange } from "@/lib/schemas/overview";

const HOUR = 3_600_000;

/**
 * The figures come from insight's rollups (lib/server/insight): outbound messages by when they
 * went out (a scheduled one from its time), outcomes folded (lib/server/message-index/fold.ts) — a
 * complained message was delivered first, so it counts as delivered too — and opens and
 * clicks once per message. The dashboard's own alert emails are left out.
 */
const counts = (t: Totals): OverviewCounts => ({ sent: t.sent, delivered: t.delivered, bounced: t.bounced, complained: t.complained, rejected: t.rejected });
const engagement = (t: Totals): EngagementCounts => ({ opened: t.opened, clicked: t.clicked });

async function periodTotals(project: Project, now: Date): Promise<Record<OverviewRange, Totals>> {
  await catchUpInsight();
  const totals = await projectTotals(project.id, OVERVIEW_RANGES.map((r) => now.getTime() - RANGE_MS[r]), now);
  return Object.fromEntries(OVERVIEW_RANGES.map((r, i) => [r, totals[i]!])) as Record<OverviewRange, Totals>;
}

export async function overviewCounts(project: Project, now = new Date()): Promise<Record<OverviewRange, OverviewCounts>> {
  const totals = await periodTotals(project, now);
  return Object.fromEntries(OVERVIEW_RANGES.map((r) => [r, counts(totals[r])])) as Record<OverviewRange, OverviewCounts>;
}

/** Hourly buckets for 24 h, daily for 7 and 30 days (UTC), with empty buckets filled in. */
export async function overviewSeries(project: Project, range: OverviewRange, now = new Date()): Promise<SeriesPoint[]> {
  const unit = range === "24h" ? "hour" : "day";
  const step = range === "24h" ? HOUR : 24 * HOUR;
  const since = new Date(now.getTime() - RANGE_MS[range]);
  const byBucket = await seriesTotals(project.id, unit, since, now);
  const start = Math.floor(since.getTime() / step) * step;
  const points: SeriesPoint[] = [];
  for (let t = start; t <= now.getTime(); t += step) {
    const key = new Date(t).toISOString().replace(".000Z", "Z");
    const r = byBucket.get(key);
    points.push({ at: key, ...(r ? { ...counts(r), ...engagement(r) } : { sent: 0, delivered: 0, bounced: 0, complained: 0, rejected: 0, opened: 0, clicked: 0 }) });
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

/** The overview's figures from the index: what `bench:insight` times (the rest asks the service and the audit log). */
export async function overviewFigures(project: Project, range: OverviewRange, now = new Date()) {
  const totals = await periodTotals(project, now);
  const [series, links, thresholds] = await Promise.all([
    overviewSeries(project, range, now),
    topLinks(project.id, new Date(now.getTime() - RANGE_MS[range]), now),
    projectThresholds(project.id),
  ]);
  return {
    counts: Object.fromEntries(OVERVIEW_RANGES.map((r) => [r, counts(totals[r])])) as OverviewData["counts"],
    engagement: Object.fromEntries(OVERVIEW_RANGES.map((r) => [r, engagement(totals[r])])) as OverviewData["engagement"],
    series,
    topLinks: links,
    thresholds,
  };
}

export async function getOverview(project: Project, range: OverviewRange = "7d", now = new Date()): Promise<OverviewData> {
  if (!OVERVIEW_RANGES.includes(range)) range = "7d";
  // Domains are the service's: asked first, so its answer overlaps the database work.
  const domainsAnswer = unverifiedDomains(project);
  const [figures, scheduled, domains, activity, stream] = await Promise.all([
    overviewFigures(project, range, now),
    upcomingScheduled(project, now),
    domainsAnswer,
    recentActivity(project),
    getStreamStatus(project).catch(() => null),
  ]);
  return { range, generatedAt: now.toISOString(), ...figures, scheduled, unverifiedDomains: domains.data, domainsError: domains.error, activity, stream };
}
