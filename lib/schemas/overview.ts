import { z } from "zod";
import { auditEntry } from "./audit";
import { domain } from "./domains";
import { streamStatus } from "./event-stream";
import { thresholdsView } from "./insight";
import { OVERVIEW_RANGES } from "../insight/ranges";

export { OVERVIEW_RANGES, RANGE_LABELS, type OverviewRange } from "../insight/ranges";

/** The overview screen's data (GET /api/p/[project]/overview). */
/** `?range=` of the overview and the deliverability screens. */
export const rangeQuery = z.object({ range: z.enum(OVERVIEW_RANGES, { error: "must be 24h, 7d or 30d" }).default("7d") });

export const overviewCounts = z.object({ sent: z.number(), delivered: z.number(), bounced: z.number(), complained: z.number(), rejected: z.number() });
export type OverviewCounts = z.infer<typeof overviewCounts>;
/** Messages opened and clicked (each message once, however many open or click events it had). */
export const engagementCounts = z.object({ opened: z.number(), clicked: z.number() });
export type EngagementCounts = z.infer<typeof engagementCounts>;
export const seriesPoint = overviewCounts.extend(engagementCounts.shape).extend({ at: z.string() });
export type SeriesPoint = z.infer<typeof seriesPoint>;
/** A link clicked in the period: links without their query string, so tracking parameters and tokens do not split one link in many. */
export const topLink = z.object({ link: z.string(), uniqueClicks: z.number(), messages: z.number() });
export type TopLink = z.infer<typeof topLink>;
export const scheduledItem = z.object({ id: z.string(), to: z.array(z.string()), subject: z.string().nullable(), status: z.string(), scheduledAt: z.string() });
export type ScheduledItem = z.infer<typeof scheduledItem>;
/** A scheduled send on the scheduled screen: the overview's item, and where the dashboard learned of it. */
export const scheduledView = scheduledItem.extend({ source: z.string() });
export type ScheduledView = z.infer<typeof scheduledView>;

const perRange = <T extends z.ZodType>(value: T) => z.object({ "24h": value, "7d": value, "30d": value });

export const overviewData = z.object({
  range: z.enum(OVERVIEW_RANGES),
  generatedAt: z.string(),
  counts: perRange(overviewCounts),
  engagement: perRange(engagementCounts),
  series: z.array(seriesPoint),
  topLinks: z.array(topLink),
  /** The project's alert thresholds: the rates are coloured against them. */
  thresholds: thresholdsView,
  scheduled: z.array(scheduledItem),
  unverifiedDomains: z.array(domain),
  domainsError: z.string().nullable(),
  activity: z.array(auditEntry),
  /** Where the counts come from: the event stream (live) or the dashboard's own reads (polling). Null when it could not be read. */
  stream: streamStatus.nullable(),
});
export type OverviewData = z.infer<typeof overviewData>;
