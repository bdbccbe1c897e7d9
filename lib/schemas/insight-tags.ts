import { z } from "zod";
import { OVERVIEW_RANGES } from "../insight/ranges";
import { rateFigures } from "./deliverability";
import { thresholdsView } from "./insight";

/** The Tags screen's query (GET /api/p/[project]/insight/tags?period=): 7 days when absent. */
export const tagsPeriodQuery = z.object({ period: z.enum(OVERVIEW_RANGES, { error: "must be 24h, 7d or 30d" }).default("7d") });

export const tagRow = rateFigures.extend({
  /** The tag; both '' on the "other tags" row (messages with a pair beyond the project's cap). */
  name: z.string(),
  value: z.string(),
  other: z.boolean(),
  clicked: z.number(),
  /** clicked ÷ delivered. */
  clickRate: z.number().nullable(),
});
export type TagRow = z.infer<typeof tagRow>;

export const tagsData = z.object({
  period: z.enum(OVERVIEW_RANGES),
  generatedAt: z.string(),
  /** The period's tag pairs with mail, most sent first; the "other tags" row last when there is one. */
  tags: z.array(tagRow),
  thresholds: thresholdsView,
  /** Below this volume a tag's rate is shown but not coloured. */
  minVolume: z.number(),
  /** How many tag pairs a project's figures keep (INSIGHT_TAG_PAIRS_MAX). */
  maxPairs: z.number(),
});
export type TagsData = z.infer<typeof tagsData>;
