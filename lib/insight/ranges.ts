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
