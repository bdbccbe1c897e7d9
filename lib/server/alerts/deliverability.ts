import "server-only";
import type { DeliverabilityData, DeliverabilityRange, ProviderRow, RateFigures } from "@/lib/schemas/deliverability";
import { flagProviders } from "@/lib/insight/flags";
import { PROVIDER_KEYS, type ProviderKey } from "@/lib/insight/providers";
import { RANGE_MS } from "@/lib/insight/ranges";
import { levelOf, levelsOf, type Thresholds } from "@/lib/insight/thresholds";
import type { Project } from "@/lib/server/gate/access";
import { projectThresholds } from "./settings";
import { env } from "@/lib/server/env";
import { pendingDomains } from "@/lib/server/insight/domains";
import { catchUpInsight } from "@/lib/server/insight/read";
import { emptyTotals, windowTotals, type Totals } from "@/lib/server/insight/windows";

const per = (n: number, of: number) => (of ? n / of : null);

/** Sent, delivered, bounced, complained and opened of one group (a provider, a tag), each rate held against the thresholds. */
export function rateFiguresOf(t: Totals, thresholds: Thresholds, minVolume: number): RateFigures {
  const bounceRate = per(t.bounced, t.sent);
  const complaintRate = per(t.complained, t.delivered);
  return {
    sent: t.sent,
    delivered: t.delivered,
    bounced: t.bounced,
    complained: t.complained,
    opened: t.opened,
    bounceRate,
    complaintRate,
    openRate: per(t.opened, t.delivered),
    // A handful of messages says nothing about a rate: coloured only from the minimum volume.
    bounceLevel: t.sent >= minVolume ? levelOf(bounceRate, levelsOf("bounce", thresholds)) : "ok",
    complaintLevel: t.delivered >= minVolume ? levelOf(complaintRate, levelsOf("complaint", thresholds)) : "ok",
  };
}

const toRow = (provider: ProviderKey, t: Totals, thresholds: Thresholds, minVolume: number): ProviderRow => ({ provider, ...rateFiguresOf(t, thresholds, minVolume) });

/**
 * A provider's rates are coloured and compared from this many messages (or ALERT_MIN_VOLUME
 * when lower): a week of a small project's Yahoo mail is enough to see it bounce more, and
 * fewer than this is chance.
 */
export const PROVIDER_MIN_VOLUME = 50;
/** The volume from which a group's rates are coloured: ALERT_MIN_VOLUME when lower. */
export const groupMinVolume = () => Math.min(env().ALERT_MIN_VOLUME, PROVIDER_MIN_VOLUME);

export async function getDeliverability(project: Project, range: DeliverabilityRange, now = new Date()): Promise<DeliverabilityData> {
  await catchUpInsight();
  const since = new Date(now.getTime() - RANGE_MS[range]);
  const minVolume = groupMinVolume();
  const [byProvider, thresholds, pending] = await Promise.all([
    windowTotals(project.id, [since.getTime()], now, { byProvider: true }),
    projectThresholds(project.id),
    pendingDomains(project.id, since),
  ]);
  const total = emptyTotals();
  const providers = PROVIDER_KEYS.map((p) => {
    const t = byProvider.get(p)?.[0] ?? emptyTotals();
    for (const k of Object.keys(total) as (keyof Totals)[]) total[k] += t[k];
    return toRow(p, t, thresholds, minVolume);
  });
  return {
    range,
    generatedAt: now.toISOString(),
    providers,
    total: (({ provider: _, ...rest }) => rest)(toRow("other", total, thresholds, minVolume)),
    flags: flagProviders(providers, thresholds, minVolume),
    thresholds,
    minVolume,
    pendingDomains: pending,
  };
}
