"use client";

import { BarChart } from "@/components/charts/bar-chart";
import type { ChartDatum } from "@/components/charts/chart-content";
import type { OverviewRange, SeriesPoint } from "@/lib/schemas/overview";

const SERIES = [
  { key: "delivered", label: "Delivered", color: "#059669" },
  { key: "bounced", label: "Bounced", color: "#dc2626" },
  { key: "complained", label: "Complained", color: "#c026d3" },
  { key: "rejected", label: "Rejected", color: "#64748b" },
] as const;

/** Hours in the reader's clock; days are UTC days, so they are named in UTC (a local name could be the day before). */
function bucket(p: SeriesPoint, range: OverviewRange): ChartDatum {
  const d = new Date(p.at);
  const hourly = range === "24h";
  return {
    key: p.at,
    label: hourly ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" }),
    title: hourly
      ? d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
      : d.toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }),
    values: Object.fromEntries(SERIES.map((s) => [s.key, p[s.key]])),
  };
}

/** Outcomes per hour (24 h) or per day, stacked; the numbers above the chart are the same data. */
export function OverviewChart({ series, range }: { series: SeriesPoint[]; range: OverviewRange }) {
  const total = series.reduce((n, p) => n + p.sent, 0);
  return (
    <figure className="rounded-lg border bg-card p-4" aria-label={`Message outcomes, ${total} sent in the period`}>
      <BarChart className="h-64 w-full" data={series.map((p) => bucket(p, range))} series={SERIES} label={range === "24h" ? "Outcomes per hour" : "Outcomes per day"} integer legend={SERIES} />
      <figcaption className="sr-only">Stacked bars of delivered, bounced, complained and rejected messages over time (UTC buckets).</figcaption>
    </figure>
  );
}
