"use client";

import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DeliverabilityData } from "@/lib/insight/deliverability";
import { PROVIDERS } from "@/lib/insight/providers";
import { formatRate, formatThreshold, levelsOf, type Level, type Metric } from "@/lib/insight/thresholds";

/** Bar colours per level; the level is also in the table and the tooltip, never in colour alone. */
const FILL: Record<Level | "none", string> = { ok: "#059669", warning: "#d97706", limit: "#dc2626", none: "#94a3b8" };

function RateChart({ data, metric, title }: { data: DeliverabilityData; metric: Metric; title: string }) {
  const levels = levelsOf(metric, data.thresholds);
  const rows = data.providers.map((p) => {
    const rate = metric === "bounce" ? p.bounceRate : p.complaintRate;
    const judged = (metric === "bounce" ? p.sent : p.delivered) >= data.minVolume;
    const level = metric === "bounce" ? p.bounceLevel : p.complaintLevel;
    return { name: PROVIDERS[p.provider].label, value: rate === null ? 0 : rate * 100, rate, fill: FILL[judged && rate !== null ? level : "none"] };
  });
  // Room above the limit line; never past 100 %.
  const max = Math.min(100, Math.max(levels.limit * 100 * 1.25, ...rows.map((r) => r.value * 1.1)));
  return (
    <figure className="rounded-lg border bg-card p-4" aria-label={`${title}: ${rows.map((r) => `${r.name} ${formatRate(r.rate)}`).join(", ")}`}>
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
            <XAxis dataKey="name" tick={{ fontSize: 11 }} className="fill-muted-foreground" />
            <YAxis domain={[0, max]} tickFormatter={(v: number) => `${Number(v.toPrecision(3))}%`} tick={{ fontSize: 11 }} className="fill-muted-foreground" />
            <Tooltip
              formatter={(_v, _n, item) => [formatRate((item.payload as { rate: number | null }).rate), title]}
              contentStyle={{ background: "var(--popover)", color: "var(--popover-foreground)", border: "1px solid var(--border)", borderRadius: 6, fontSize: 12 }}
              itemStyle={{ color: "var(--popover-foreground)" }}
              cursor={{ fill: "var(--muted)" }}
            />
            <ReferenceLine y={levels.warning * 100} stroke="#d97706" strokeDasharray="4 4" label={{ value: `warning ${formatThreshold(levels.warning)}`, position: "insideTopLeft", fontSize: 11, className: "fill-foreground" }} />
            <ReferenceLine y={levels.limit * 100} stroke="#dc2626" strokeDasharray="4 4" label={{ value: `limit ${formatThreshold(levels.limit)}`, position: "insideTopRight", fontSize: 11, className: "fill-foreground" }} />
            <Bar dataKey="value" isAnimationActive={false}>
              {rows.map((r) => (
                <Cell key={r.name} fill={r.fill} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Each provider's bounce and complaint rate beside the warning level and the limit. */
export function ProviderChart({ data }: { data: DeliverabilityData }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <RateChart data={data} metric="bounce" title="Bounce rate by provider" />
      <RateChart data={data} metric="complaint" title="Complaint rate by provider" />
    </div>
  );
}
