"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { OverviewRange, SeriesPoint } from "@/lib/server/overview/types";

const SERIES = [
  { key: "delivered", label: "Delivered", color: "#059669" },
  { key: "bounced", label: "Bounced", color: "#dc2626" },
  { key: "complained", label: "Complained", color: "#c026d3" },
  { key: "rejected", label: "Rejected", color: "#64748b" },
] as const;

function tick(at: string, range: OverviewRange): string {
  const d = new Date(at);
  return range === "24h" ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** Outcomes per hour (24 h) or per day, stacked; the numbers above the chart are the same data. */
export function OverviewChart({ series, range }: { series: SeriesPoint[]; range: OverviewRange }) {
  const total = series.reduce((n, p) => n + p.sent, 0);
  return (
    <figure className="rounded-lg border bg-card p-4" aria-label={`Message outcomes, ${total} sent in the period`}>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
            <XAxis dataKey="at" tickFormatter={(v: string) => tick(v, range)} tick={{ fontSize: 11 }} minTickGap={24} className="fill-muted-foreground" />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} className="fill-muted-foreground" />
            <Tooltip
              labelFormatter={(v) => new Date(String(v)).toLocaleString()}
              contentStyle={{ background: "var(--popover)", color: "var(--popover-foreground)", border: "1px solid var(--border)", borderRadius: 6, fontSize: 12 }}
              // Text in the series colours fails contrast on the popover (axe); the bars carry the colour.
              itemStyle={{ color: "var(--popover-foreground)" }}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span className="text-foreground">{value}</span>} />
            {SERIES.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} stackId="outcome" fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">Stacked bars of delivered, bounced, complained and rejected messages over time (UTC buckets).</figcaption>
    </figure>
  );
}
