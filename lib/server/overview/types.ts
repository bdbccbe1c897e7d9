import type { Domain } from "@/lib/schemas";
import type { AuditEntry } from "@/lib/schemas/audit";
import type { StreamStatus } from "@/lib/schemas/event-stream";

/** Shapes of the overview, shared with the browser (no server-only import). */
export const OVERVIEW_RANGES = ["24h", "7d", "30d"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const RANGE_LABELS: Record<OverviewRange, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

export type OverviewCounts = { sent: number; delivered: number; bounced: number; complained: number; rejected: number };
export type SeriesPoint = OverviewCounts & { at: string };
export type ScheduledItem = { id: string; to: string[]; subject: string | null; status: string; scheduledAt: string };

export type OverviewData = {
  range: OverviewRange;
  generatedAt: string;
  counts: Record<OverviewRange, OverviewCounts>;
  series: SeriesPoint[];
  scheduled: ScheduledItem[];
  unverifiedDomains: Domain[];
  domainsError: string | null;
  activity: AuditEntry[];
  /** Where the counts come from: the event stream (live) or the dashboard's own reads (polling). Null when it could not be read. */
  stream: StreamStatus | null;
};

/** Thresholds mailbox providers enforce (Google and Yahoo sender rules, common ESP limits). */
export const BOUNCE_RATE_LIMIT = 0.04;
export const COMPLAINT_RATE_LIMIT = 0.001;

/** Bounces per message sent; complaints per message delivered. Null when nothing to divide by. */
export function rates(c: OverviewCounts): { bounce: number | null; complaint: number | null } {
  return { bounce: c.sent ? c.bounced / c.sent : null, complaint: c.delivered ? c.complained / c.delivered : null };
}
