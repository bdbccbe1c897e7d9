"use client";

import { useRef, useState, type KeyboardEvent } from "react";
import { cn } from "@/lib/utils";
import { describe, tooltipContent, type ChartDatum, type ChartSeries, type ValueFormat } from "./chart-content";
import { FONT_SIZE, nextIndex, stack, stackedMax, textWidth, visibleLabels, yAxis } from "./chart-math";
import { ChartLegend } from "./chart-legend";
import { ChartTooltip } from "./chart-tooltip";
import { useSize } from "./use-size";

export type ReferenceLine = { value: number; label: string; color: string; align: "left" | "right" };

type BarChartProps<D extends ChartDatum> = {
  data: readonly D[];
  /** Stacked in this order, bottom first. */
  series: readonly ChartSeries[];
  /** The accessible name of the list of bars. */
  label: string;
  /** Whole-number ticks (counts). */
  integer?: boolean;
  /** The y axis reaches at least this high (room for a reference line above the bars). */
  minTop?: number;
  formatTick?: (value: number) => string;
  formatValue?: ValueFormat<D>;
  references?: readonly ReferenceLine[];
  legend?: readonly { label: string; color: string }[];
  /** The height (h-64…), legend included. */
  className?: string;
};

const MARGIN = { top: 12, right: 8, bottom: 22 };
const MAX_BAR_WIDTH = 56;

/**
 * Vertical bars, stacked by series or coloured one by one, with a nice y axis, x labels thinned
 * so none overlaps, dashed grid and reference lines. Each bar is a list item: Tab reaches the
 * chart, the arrow keys (Home, End) move between bars, and hover or focus shows the tooltip.
 */
export function BarChart<D extends ChartDatum>({ data, series, label, integer, minTop = 0, formatTick = (v) => v.toLocaleString(), formatValue, references = [], legend, className }: BarChartProps<D>) {
  const box = useRef<HTMLDivElement>(null);
  const bars = useRef<(SVGGElement | null)[]>([]);
  const { width, height } = useSize(box);
  const [hovered, setHovered] = useState<number | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const [tabStop, setTabStop] = useState(data.length - 1);
  const [dismissed, setDismissed] = useState(false);

  const keys = series.map((s) => s.key);
  const axis = yAxis(Math.max(minTop, stackedMax(data, keys)), { integer });
  const tickLabels = axis.ticks.map(formatTick);
  const left = Math.max(...tickLabels.map((t) => textWidth(t))) + 10;
  const plotWidth = Math.max(0, width - left - MARGIN.right);
  const plotBottom = height - MARGIN.bottom;
  const plotHeight = Math.max(0, plotBottom - MARGIN.top);
  const band = data.length ? plotWidth / data.length : 0;
  const barWidth = Math.min(MAX_BAR_WIDTH, Math.max(1, band * 0.8));
  const y = (value: number) => plotBottom - (Math.min(value, axis.top) / axis.top) * plotHeight;
  const centre = (i: number) => left + band * (i + 0.5);
  const shownLabels = visibleLabels(
    data.map((d) => d.label),
    band,
  );

  const active = dismissed ? null : (hovered ?? focused);
  const stop = Math.min(Math.max(0, tabStop), data.length - 1);

  function onKeyDown(event: KeyboardEvent<SVGGElement>) {
    if (event.key === "Escape") {
      setDismissed(true);
      return;
    }
    const next = nextIndex(event.key, focused ?? stop, data.length);
    if (next === null) return;
    event.preventDefault();
    bars.current[next]?.focus();
  }

  return (
    <div className={cn("flex flex-col", className)}>
      <div ref={box} className="relative min-h-0 flex-1">
        {width > 0 && height > 0 && (
          <svg width={width} height={height} className="block overflow-visible" fontSize={FONT_SIZE}>
            <g aria-hidden="true">
              {axis.ticks.map((t, i) => (
                <g key={t}>
                  <line x1={left} x2={left + plotWidth} y1={y(t)} y2={y(t)} className="stroke-border" strokeDasharray={t === 0 ? undefined : "3 3"} />
                  <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground">
                    {tickLabels[i]}
                  </text>
                </g>
              ))}
              {data.map((d, i) => {
                if (!shownLabels.has(i)) return null;
                const half = textWidth(d.label) / 2;
                return (
                  <text key={d.key} x={Math.min(Math.max(centre(i), half), width - half)} y={plotBottom + 15} textAnchor="middle" className="fill-muted-foreground">
                    {d.label}
                  </text>
                );
              })}
            </g>
            <g role="list" aria-label={label} onKeyDown={onKeyDown} onMouseLeave={() => setHovered(null)}>
              {data.map((d, i) => {
                const content = tooltipContent(d, series, formatValue);
                return (
                  <g
                    key={d.key}
                    ref={(el) => {
                      bars.current[i] = el;
                    }}
                    role="listitem"
                    aria-label={describe(content)}
                    tabIndex={i === stop ? 0 : -1}
                    data-testid="chart-bar"
                    className="group outline-none"
                    onFocus={() => {
                      setFocused(i);
                      setTabStop(i);
                      setDismissed(false);
                    }}
                    onBlur={() => setFocused((f) => (f === i ? null : f))}
                    onMouseEnter={() => {
                      setHovered(i);
                      setDismissed(false);
                    }}
                  >
                    {/* The whole column answers the pointer, and shows which bar the tooltip is about. */}
                    <rect x={left + band * i} y={MARGIN.top} width={band} height={plotHeight} className={active === i ? "fill-muted" : "fill-transparent"} />
                    {stack(d.values, keys).map((s, k) =>
                      s.y1 > s.y0 ? (
                        <rect key={s.key} data-testid="chart-bar-segment" data-series={s.key} x={centre(i) - barWidth / 2} y={y(s.y1)} width={barWidth} height={Math.max(0, y(s.y0) - y(s.y1))} fill={d.color ?? series[k].color} />
                      ) : null,
                    )}
                    <rect x={left + band * i + 1} y={MARGIN.top + 1} width={Math.max(0, band - 2)} height={Math.max(0, plotHeight - 2)} rx={3} fill="none" strokeWidth={2} className="stroke-transparent group-focus-visible:stroke-ring" />
                  </g>
                );
              })}
            </g>
            {/* Over the bars; the labels on a halo of the card's colour, readable across a bar. */}
            <g aria-hidden="true" className="pointer-events-none">
              {references.map((r) => (
                <g key={r.label}>
                  <line x1={left} x2={left + plotWidth} y1={y(r.value)} y2={y(r.value)} stroke={r.color} strokeDasharray="4 4" />
                  <text x={r.align === "left" ? left + 4 : left + plotWidth - 4} y={y(r.value) - 4} textAnchor={r.align === "left" ? "start" : "end"} className="fill-foreground stroke-card" strokeWidth={3} strokeLinejoin="round" paintOrder="stroke">
                    {r.label}
                  </text>
                </g>
              ))}
            </g>
          </svg>
        )}
        {active !== null && data[active] && (
          <ChartTooltip content={tooltipContent(data[active], series, formatValue)} x={centre(active)} top={MARGIN.top} chartWidth={width} />
        )}
      </div>
      {legend && <ChartLegend items={legend} />}
    </div>
  );
}
