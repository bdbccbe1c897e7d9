"use client";

import { BarChart } from "@/components/charts/bar-chart";
import type { ChartDatum } from "@/components/charts/chart-content";
import { ChartLegend } from "@/components/charts/chart-legend";
import type { DeliverabilityData } from "@/lib/schemas/deliverability";
import { PROVIDERS } from "@/lib/insight/providers";
import { formatRate, formatThreshold, LEVEL_WORDS, levelsOf, type Level, type Metric } from "@/lib/insight/thresholds";

/** Bar colours per level; the level is also in the table and the tooltip, never in colour alone. */
const FILL: Record<Level | "none", string> = { ok: "#059669", warning: "#d97706", limit: "#dc2626", none: "#94a3b8" };
const LEGEND = [
  ...(["ok", "warning", "limit"] as const).map((level) => ({ label: LEVEL_WORDS[level], color: FILL[level] })),
  { label: "Too few messages to judge", color: FILL.none },
];

type ProviderBar = ChartDatum & { rate: number | null };

function RateChart({ data, metric, title }: { data: DeliverabilityData; metric: Metric; title: string }) {
  const levels = levelsOf(metric, data.thresholds);
  const rows: ProviderBar[] = data.providers.map((p) => {
    const rate = metric === "bounce" ? p.bounceRate : p.complaintRate;
    const judged = (metric === "bounce" ? p.sent : p.delivered) >= data.minVolume && rate !== null;
    const level = metric === "bounce" ? p.bounceLevel : p.complaintLevel;
    const name = PROVIDERS[p.provider].label;
    return {
      key: p.provider,
      label: name,
      title: name,
      values: { rate: rate === null ? 0 : rate * 100 },
      rate,
      color: FILL[judged ? level : "none"],
      note: judged ? LEVEL_WORDS[level] : `Not judged: under ${data.minVolume.toLocaleString()} messages`,
    };
  });
  // Room above the limit line; never past 100 %.
  const top = Math.min(100, Math.max(levels.limit * 100 * 1.25, ...rows.map((r) => r.values.rate * 1.1)));
  return (
    <figure className="rounded-lg border bg-card p-4" aria-label={`${title}: ${rows.map((r) => `${r.label} ${formatRate(r.rate)}`).join(", ")}`}>
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <BarChart
        className="h-56 w-full"
        data={rows}
        series={[{ key: "rate", label: metric === "bounce" ? "Bounce rate" : "Complaint rate", color: FILL.none }]}
        label={`${title}, one bar per provider`}
        minTop={top}
        formatTick={(v) => `${Number(v.toPrecision(3))}%`}
        formatValue={(_v, bar) => formatRate(bar.rate)}
        references={[
          { value: levels.warning * 100, label: `warning ${formatThreshold(levels.warning)}`, color: FILL.warning, align: "left" },
          { value: levels.limit * 100, label: `limit ${formatThreshold(levels.limit)}`, color: FILL.limit, align: "right" },
        ]}
      />
    </figure>
  );
}

/** Each provider's bounce and complaint rate beside the warning level and the limit; one legend for both. */
export function ProviderChart({ data }: { data: DeliverabilityData }) {
  return (
    <div className="space-y-2">
      <div className="grid gap-4 lg:grid-cols-2">
        <RateChart data={data} metric="bounce" title="Bounce rate by provider" />
        <RateChart data={data} metric="complaint" title="Complaint rate by provider" />
      </div>
      <ChartLegend items={LEGEND} />
    </div>
  );
}
