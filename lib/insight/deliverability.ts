import type { ProviderFlag } from "./flags";
import type { ProviderKey } from "./providers";
import type { Level, Thresholds } from "./thresholds";

/** The deliverability screen's data, shared with the browser. */
export const DELIVERABILITY_RANGES = ["24h", "7d", "30d"] as const;
export type DeliverabilityRange = (typeof DELIVERABILITY_RANGES)[number];

export type ProviderRow = {
  provider: ProviderKey;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  opened: number;
  /** bounced ÷ sent; complained ÷ delivered; opened ÷ delivered. Null when nothing to divide by. */
  bounceRate: number | null;
  complaintRate: number | null;
  openRate: number | null;
  bounceLevel: Level;
  complaintLevel: Level;
};

export type DeliverabilityData = {
  range: DeliverabilityRange;
  generatedAt: string;
  /** Every provider, in PROVIDER_KEYS order, with zeros where no mail went. */
  providers: ProviderRow[];
  total: Omit<ProviderRow, "provider">;
  flags: ProviderFlag[];
  thresholds: Thresholds;
  /** Below this volume a provider's rate is shown but neither flagged nor coloured. */
  minVolume: number;
  /** Recipient domains of the period still waiting for their MX lookup (counted as Other until then). */
  pendingDomains: number;
};
