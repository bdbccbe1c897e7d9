import type { TooltipContent } from "./chart-content";

/**
 * The hovered or focused bar's figures beside it, on the side with more room. Hidden from
 * screen readers: the focused bar's own name already says the same.
 */
export function ChartTooltip({ content, x, top, flip }: { content: TooltipContent; x: number; top: number; flip: boolean }) {
  return (
    <div
      aria-hidden="true"
      data-testid="chart-tooltip"
      className="pointer-events-none absolute z-10 whitespace-nowrap rounded-md border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-md"
      style={{ left: x, top, transform: flip ? "translateX(calc(-100% - 12px))" : "translateX(12px)" }}
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
