import { z } from "zod";
import { OVERVIEW_RANGES } from "../insight/ranges";
import { rateFigures } from "./deliverability";
import { thresholdsView } from "./insight";

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

/** The Tags screen's answer (GET /api/p/[project]/insight/tags?range=, the overview's rangeQuery like the other insight screens). */
export const tagsData = z.object({
  range: z.enum(OVERVIEW_RANGES),
  generatedAt: z.string(),
  /** The range's tag pairs with mail, most sent first; the "other tags" row last when there is one. */
  tags: z.array(tagRow),
  thresholds: thresholdsView,
  /** Below this volume a tag's rate is shown but not coloured. */
  minVolume: z.number(),
  /** How many tag pairs a project's figures keep (INSIGHT_TAG_PAIRS_MAX). */
  maxPairs: z.number(),
});
export type TagsData = z.infer<typeof tagsData>;
