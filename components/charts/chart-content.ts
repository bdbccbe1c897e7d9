/** What a bar chart draws, and the words its tooltip and screen readers give for one bar. */

export type ChartSeries = { key: string; label: string; color: string };

export type ChartDatum = {
  /** Unique among the bars. */
  key: string;
  /** Under the bar (short: "Nov 3", "14:00"). */
  label: string;
  /** The tooltip's heading and the start of the bar's accessible name. */
  title: string;
  values: Record<string, number>;
  /** One colour for the whole bar instead of the series colours (a level, say). */
  color?: string;
  /** A line under the values (what the colour means, say). */
  note?: string;
};

export type ValueFormat<D extends ChartDatum> = (value: number, datum: D, series: ChartSeries) => string;

export type TooltipContent = { title: string; rows: { key: string; label: string; color: string; text: string }[]; note?: string };

const plain = (value: number) => value.toLocaleString();

/** The tooltip of one bar: its title, each series' value in the bar's colours, and its note. */
export function tooltipContent<D extends ChartDatum>(datum: D, series: readonly ChartSeries[], format: ValueFormat<D> = plain): TooltipContent {
  return {
    title: datum.title,
    rows: series.map((s) => ({ key: s.key, label: s.label, color: datum.color ?? s.color, text: format(datum.values[s.key] ?? 0, datum, s) })),
    note: datum.note,
  };
}

/** The same words in one line: a bar's accessible name. */
export function describe(content: TooltipContent): string {
  const values = content.rows.map((r) => `${r.label} ${r.text}`).join(", ");
  return `${content.title}: ${values}${content.note ? `. ${content.note}` : ""}`;
}
