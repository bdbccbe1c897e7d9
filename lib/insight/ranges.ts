/**
 * The insight screens' time ranges (overview, deliverability), free of zod: the screens need
 * them at first render, and the schemas of their answers load only with the answers.
 */
export const OVERVIEW_RANGES = ["24h", "7d", "30d"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const RANGE_LABELS: Record<OverviewRange, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

/** The range a screen's URL asks for (`?range=`): 7 days when absent or not one of the ranges. */
export function rangeFrom(value: unknown): OverviewRange {
  return typeof value === "string" && (OVERVIEW_RANGES as readonly string[]).includes(value) ? (value as OverviewRange) : "7d";
}

const HOUR = 3_600_000;
/** Each range's length, for the overview's and the deliverability read's windows (lib/server). */
export const RANGE_MS: Record<OverviewRange, number> = { "24h": 24 * HOUR, "7d": 7 * 24 * HOUR, "30d": 30 * 24 * HOUR };
