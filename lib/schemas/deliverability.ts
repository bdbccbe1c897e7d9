import { z } from "zod";
import { LEVELS, METRICS } from "../insight/thresholds";
import { PROVIDER_KEYS } from "../insight/providers";
import { OVERVIEW_RANGES, type OverviewRange } from "../insight/ranges";
import { thresholdsView } from "./insight";

/** The deliverability screen's data (GET /api/p/[project]/deliverability). */
export type DeliverabilityRange = OverviewRange;

const providerKey = z.enum(PROVIDER_KEYS);
const level = z.enum(LEVELS);

/** A group's figures and rates held against the thresholds (a provider here, a tag on the Tags screen). */
export const rateFigures = z.object({
  sent: z.number(),
  delivered: z.number(),
  bounced: z.number(),
  complained: z.number(),
  opened: z.number(),
  /** bounced ÷ sent; complained ÷ delivered; opened ÷ delivered. Null when nothing to divide by. */
  bounceRate: z.number().nullable(),
  complaintRate: z.number().nullable(),
  openRate: z.number().nullable(),
  bounceLevel: level,
  complaintLevel: level,
});

export const providerRow = rateFigures.extend({ provider: providerKey });
export type ProviderRow = z.infer<typeof providerRow>;

export const providerFlag = z.object({
  provider: providerKey,
  metric: z.enum(METRICS),
  rate: z.number(),
  othersRate: z.number(),
  ratio: z.number().nullable(),
  text: z.string(),
});

export const deliverabilityData = z.object({
  range: z.enum(OVERVIEW_RANGES),
  generatedAt: z.string(),
  /** Every provider, in PROVIDER_KEYS order, with zeros where no mail went. */
  providers: z.array(providerRow),
  total: rateFigures,
  flags: z.array(providerFlag),
  thresholds: thresholdsView,
  /** Below this volume a provider's rate is shown but neither flagged nor coloured. */
  minVolume: z.number(),
  /** Recipient domains of the period still waiting for their MX lookup (counted as Other until then). */
  pendingDomains: z.number(),
});
export type DeliverabilityData = z.infer<typeof deliverabilityData>;
export type ProviderFlag = z.infer<typeof providerFlag>;
export type RateFigures = z.infer<typeof rateFigures>;
