import type { Domain } from "@/lib/schemas";
import type { AuditEntry } from "@/lib/schemas/audit";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import type { Thresholds } from "@/lib/insight/thresholds";

/** Shapes of the overview, shared with the browser (no server-only import). */
export const OVERVIEW_RANGES = ["24h", "7d", "30d"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const RANGE_LABELS: Record<OverviewRange, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

export type OverviewCounts = { sent: number; delivered: number; bounced: number; complained: number; rejected: number };
/** Messages opened and clicked (each message once, however many open or click events it had). */
export type EngagementCounts = { opened: number; clicked: number };
export type SeriesPoint = OverviewCounts & EngagementCounts & { at: string };
/** A link clicked in the period: links without their query string, so tracking parameters and tokens do not split one link in many. */
export type TopLink = { link: string; uniqueClicks: number; messages: number };
export type ScheduledItem = { id: string; to: string[]; subject: string | null; status: string; scheduledAt: string };

export type OverviewData = {
  range: OverviewRange;
  generatedAt: string;
  counts: Record<OverviewRange, OverviewCounts>;
  engagement: Record<OverviewRange, EngagementCounts>;
  series: SeriesPoint[];
  topLinks: TopLink[];
  /** The project's alert thresholds: the rates are coloured against them. */
  thresholds: Thresholds;
  scheduled: ScheduledItem[];
  unverifiedDomains: Domain[];
  domainsError: string | null;
  activity: AuditEntry[];
  /** Where the counts come from: the event stream (live) or the dashboard's own reads (polling). Null when it could not be read. */
  stream: StreamStatus | null;
};

/** Bounces per message sent; complaints, opens and clicks per message delivered. Null when nothing to divide by. */
export function rates(c: OverviewCounts & EngagementCounts): { bounce: number | null; complaint: number | null; open: number | null; click: number | null };
export function rates(c: OverviewCounts): { bounce: number | null; complaint: number | null };
export function rates(c: OverviewCounts & Partial<EngagementCounts>) {
  const per = (n: number, of: number) => (of ? n / of : null);
  const base = { bounce: per(c.bounced, c.sent), complaint: per(c.complained, c.delivered) };
  return c.opened === undefined ? base : { ...base, open: per(c.opened, c.delivered), click: per(c.clicked ?? 0, c.delivered) };
}
