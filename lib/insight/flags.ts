import { PROVIDERS, type ProviderKey } from "./providers";
import { formatRate, levelsOf, timesWords, type Metric, type Thresholds } from "./thresholds";
import type { ProviderFlag } from "@/lib/schemas/deliverability";

/**
 * A mailbox provider whose bounce or complaint rate stands out: above the warning level, at
 * least STAND_OUT times the rate of all the other providers together, each side with at
 * least the minimum volume — so one bounce among twelve Yahoo messages flags nothing.
 */
export const STAND_OUT = 2;

export type ProviderCounts = { provider: ProviderKey; sent: number; delivered: number; bounced: number; complained: number };

const of: Record<Metric, { count: (c: ProviderCounts) => number; volume: (c: ProviderCounts) => number }> = {
  bounce: { count: (c) => c.bounced, volume: (c) => c.sent },
  complaint: { count: (c) => c.complained, volume: (c) => c.delivered },
};

function sentence(metric: Metric, provider: ProviderKey, rate: number, othersRate: number, ratio: number | null): string {
  const label = PROVIDERS[provider].label;
  const versus = ratio === null ? `while the others have none (${formatRate(othersRate)})` : `${timesWords(ratio)} the others (${formatRate(othersRate)})`;
  return metric === "bounce"
    ? `${label} bounces ${formatRate(rate)} of mail, ${versus}: look at the bounce reasons of these messages — when ${label} blocks mail, its reply names why (unknown users, sender reputation, authentication).`
    : `${label} users mark ${formatRate(rate)} of delivered mail as spam, ${versus}: check who is being mailed there, and make unsubscribing easy (a List-Unsubscribe header, a visible link).`;
}

export function flagProviders(rows: ProviderCounts[], thresholds: Thresholds, minVolume: number): ProviderFlag[] {
  const flags: ProviderFlag[] = [];
  for (const metric of ["bounce", "complaint"] as const) {
    const { count, volume } = of[metric];
    const { warning } = levelsOf(metric, thresholds);
    const totalCount = rows.reduce((n, r) => n + count(r), 0);
    const totalVolume = rows.reduce((n, r) => n + volume(r), 0);
    for (const r of rows) {
      const v = volume(r);
      const othersVolume = totalVolume - v;
      if (v < minVolume || othersVolume < minVolume) continue;
      const rate = count(r) / v;
      const othersRate = (totalCount - count(r)) / othersVolume;
      if (rate < warning || rate < STAND_OUT * othersRate) continue;
      const ratio = othersRate > 0 ? rate / othersRate : null;
      flags.push({ provider: r.provider, metric, rate, othersRate, ratio, text: sentence(metric, r.provider, rate, othersRate, ratio) });
    }
  }
  return flags;
}
