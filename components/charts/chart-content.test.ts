import { describe as group, expect, it } from "vitest";
import { describe, tooltipContent, type ChartDatum } from "@/components/charts/chart-content";

const OUTCOMES = [
  { key: "delivered", label: "Delivered", color: "#059669" },
  { key: "bounced", label: "Bounced", color: "#dc2626" },
];

group("tooltipContent", () => {
  it("gives each series' value of the focused bar, in the series colours", () => {
    const bar: ChartDatum = { key: "2026-11-03", label: "Nov 3", title: "Tue, Nov 3, 2026", values: { delivered: 1204, bounced: 7 } };
    const content = tooltipContent(bar, OUTCOMES);
    expect(content).toEqual({
      title: "Tue, Nov 3, 2026",
      rows: [
        { key: "delivered", label: "Delivered", color: "#059669", text: (1204).toLocaleString() },
        { key: "bounced", label: "Bounced", color: "#dc2626", text: "7" },
      ],
      note: undefined,
    });
    expect(describe(content)).toBe(`Tue, Nov 3, 2026: Delivered ${(1204).toLocaleString()}, Bounced 7`);
  });

  it("shows a series the bar lacks as 0", () => {
    const bar: ChartDatum = { key: "h", label: "14:00", title: "Nov 3, 14:00", values: { delivered: 2 } };
    expect(tooltipContent(bar, OUTCOMES).rows.map((r) => r.text)).toEqual(["2", "0"]);
  });

  it("uses the bar's own colour, its formatted value and its note", () => {
    type Provider = ChartDatum & { rate: number | null };
    const bar: Provider = { key: "gmail", label: "Gmail", title: "Gmail", values: { rate: 4.5 }, rate: 0.045, color: "#dc2626", note: "Above the limit" };
    const content = tooltipContent(bar, [{ key: "rate", label: "Bounce rate", color: "#94a3b8" }], (_v, b) => `${((b.rate ?? 0) * 100).toFixed(1)}%`);
    expect(content.rows).toEqual([{ key: "rate", label: "Bounce rate", color: "#dc2626", text: "4.5%" }]);
    expect(describe(content)).toBe("Gmail: Bounce rate 4.5%. Above the limit");
  });
});
