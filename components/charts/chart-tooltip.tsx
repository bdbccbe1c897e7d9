"use client";

import { useLayoutEffect, useRef, useState } from "react";
import type { TooltipContent } from "./chart-content";
import { tooltipLeft } from "./chart-math";

/**
 * The hovered or focused bar's figures beside it. Hidden from screen readers: the focused
 * bar's own name already says the same.
 */
export function ChartTooltip({ content, x, top, chartWidth }: { content: TooltipContent; x: number; top: number; chartWidth: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // Measured after each render (new bar, new words); an unchanged width does not render again.
  useLayoutEffect(() => setWidth(ref.current?.offsetWidth ?? 0));
  return (
    <div
      ref={ref}
      aria-hidden="true"
      data-testid="chart-tooltip"
      className="pointer-events-none absolute z-10 whitespace-nowrap rounded-md border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-md"
      style={{ left: tooltipLeft(x, width, chartWidth), top, visibility: width ? "visible" : "hidden" }}
    >
      <p className="mb-1 font-medium">{content.title}</p>
      <ul className="space-y-0.5">
        {content.rows.map((r) => (
          <li key={r.key} className="flex items-center gap-2">
            <span className="size-2.5 shrink-0 rounded-sm" style={{ background: r.color }} />
            <span>{r.label}</span>
            <span className="ml-auto pl-3 font-medium tabular-nums">{r.text}</span>
          </li>
        ))}
      </ul>
      {content.note && <p className="mt-1 text-muted-foreground">{content.note}</p>}
    </div>
  );
}
