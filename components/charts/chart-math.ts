/** Axis text size in px; label widths below are estimated from it (no layout pass needed). */
export const FONT_SIZE = 11;

/**
 * A round step (1, 2 or 5 times a power of ten) that cuts 0…max in about `count` parts; as
 * d3-array's tickIncrement, returned as its inverse when under 1 so ticks are whole fractions
 * (7 / 50 is exactly 0.14, 7 × 0.02 is not).
 */
function roundStep(max: number, count: number): { step: number; inverse: number } {
  const raw = max / count;
  const power = Math.floor(Math.log10(raw));
  const error = raw / 10 ** power;
  const factor = error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  const step = factor * 10 ** power;
  return step >= 1 ? { step, inverse: 1 } : { step, inverse: Math.round(1 / step) };
}

/**
 * The y axis from 0 to a round top at or above `max`, with round ticks between. Counts get
 * whole-number ticks only; an empty chart still gets an axis (0 to 1).
 */
export function yAxis(max: number, { integer = false, count = 5 }: { integer?: boolean; count?: number } = {}): { top: number; ticks: number[] } {
  let top = max > 0 && Number.isFinite(max) ? max : 1;
  if (integer) top = Math.max(1, Math.ceil(top));
  // Rounding the top up can change the step; settle as d3-array's nice() does.
  let { step, inverse } = roundStep(top, count);
  for (let tries = 0; tries < 10; tries++) {
    top = inverse > 1 ? Math.ceil(top * inverse) / inverse : Math.ceil(top / step) * step;
    const next = roundStep(top, count);
    if (next.step === step) break;
    ({ step, inverse } = next);
  }
  const n = Math.round(inverse > 1 ? top * inverse : top / step);
  const ticks = Array.from({ length: n + 1 }, (_, i) => (inverse > 1 ? i / inverse : i * step));
  return { top, ticks: integer ? ticks.filter(Number.isInteger) : ticks };
}

export type Segment = { key: string; y0: number; y1: number };

/** One bar's series laid on each other in the given order; negative and missing values count as 0. */
export function stack(values: Record<string, number>, keys: readonly string[]): Segment[] {
  let y = 0;
  return keys.map((key) => {
    const y0 = y;
    y += Math.max(0, values[key] ?? 0);
    return { key, y0, y1: y };
  });
}

/** The tallest stacked bar. */
export function stackedMax(data: readonly { values: Record<string, number> }[], keys: readonly string[]): number {
  return data.reduce((max, d) => Math.max(max, stack(d.values, keys).at(-1)?.y1 ?? 0), 0);
}

/** A label's width in px at the axis size: an average glyph a little wider than sans-serif digits and lower case, so estimates err wide. */
export function textWidth(text: string, fontSize = FONT_SIZE): number {
  return Math.ceil(text.length * fontSize * 0.58);
}

/**
 * Which x labels to draw so none overlaps: every `step`-th, where a step spans the widest label
 * plus a gap, counted back from the last bar so the newest bucket is always labelled.
 */
export function visibleLabels(labels: readonly string[], bandWidth: number, gap = 8): Set<number> {
  const widest = Math.max(0, ...labels.map((l) => textWidth(l)));
  const step = bandWidth > 0 ? Math.max(1, Math.ceil((widest + gap) / bandWidth)) : labels.length || 1;
  const shown = new Set<number>();
  for (let i = labels.length - 1; i >= 0; i -= step) shown.add(i);
  return shown;
}

const TOOLTIP_GAP = 12;

/** Left edge of a `width`-wide tooltip beside a bar centred at `x`: right of it if it fits in the chart, else left of it, never out of the chart. */
export function tooltipLeft(x: number, width: number, chartWidth: number): number {
  if (x + TOOLTIP_GAP + width <= chartWidth) return x + TOOLTIP_GAP;
  return Math.max(0, Math.min(x - TOOLTIP_GAP - width, chartWidth - width));
}

/** Where the arrow keys move the focus among `count` bars; null for a key the chart leaves alone. */
export function nextIndex(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowRight":
      return Math.min(count - 1, current + 1);
    case "ArrowLeft":
      return Math.max(0, current - 1);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
