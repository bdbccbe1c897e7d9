/**
 * The overview's time ranges, free of zod: the overview screen needs them at first render,
 * and the schema of its answer (lib/schemas/overview.ts) loads only with the answer.
 */
export const OVERVIEW_RANGES = ["24h", "7d", "30d"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const RANGE_LABELS: Record<OverviewRange, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

const HOUR = 3_600_000;
/** Each range's length, for the overview's and the deliverability read's windows (lib/server). */
export const RANGE_MS: Record<OverviewRange, number> = { "24h": 24 * HOUR, "7d": 7 * 24 * HOUR, "30d": 30 * 24 * HOUR };
