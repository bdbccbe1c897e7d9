import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextIndex, stack, stackedMax, textWidth, tooltipLeft, visibleLabels, yAxis } from "@/components/charts/chart-math";

describe("yAxis", () => {
  it("rounds the top up to a nice number and ticks evenly from 0", () => {
    expect(yAxis(93)).toEqual({ top: 100, ticks: [0, 20, 40, 60, 80, 100] });
    expect(yAxis(1234)).toEqual({ top: 1400, ticks: [0, 200, 400, 600, 800, 1000, 1200, 1400] });
    // The complaint chart: 0.125 % at the top.
    expect(yAxis(0.125)).toEqual({ top: 0.14, ticks: [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.14] });
  });

  it("gives counts whole-number ticks only", () => {
    expect(yAxis(3, { integer: true })).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(yAxis(13, { integer: true })).toEqual({ top: 14, ticks: [0, 2, 4, 6, 8, 10, 12, 14] });
    expect(yAxis(0.4, { integer: true })).toEqual({ top: 1, ticks: [0, 1] });
  });

  it("draws an axis for an empty chart", () => {
    expect(yAxis(0)).toEqual({ top: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(yAxis(0, { integer: true })).toEqual({ top: 1, ticks: [0, 1] });
    expect(yAxis(Number.NaN, { integer: true }).top).toBe(1);
  });

  it("always reaches the data, from 0, in a handful of ascending ticks", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), fc.boolean(), (max, integer) => {
        const { top, ticks } = yAxis(max, { integer });
        expect(top).toBeGreaterThanOrEqual(max);
        expect(ticks[0]).toBe(0);
        expect(ticks.at(-1)).toBe(top);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(11);
        ticks.slice(1).forEach((t, i) => expect(t).toBeGreaterThan(ticks[i]));
        if (integer) ticks.forEach((t) => expect(Number.isInteger(t)).toBe(true));
      }),
    );
  });
});

describe("stack", () => {
  it("lays the series on each other in order", () => {
    expect(stack({ delivered: 10, bounced: 2, complained: 0, rejected: 1 }, ["delivered", "bounced", "complained", "rejected"])).toEqual([
      { key: "delivered", y0: 0, y1: 10 },
      { key: "bounced", y0: 10, y1: 12 },
      { key: "complained", y0: 12, y1: 12 },
      { key: "rejected", y0: 12, y1: 13 },
    ]);
  });

  it("counts missing and negative values as nothing", () => {
    expect(stack({ a: 5, b: -3 }, ["a", "b", "c"])).toEqual([
      { key: "a", y0: 0, y1: 5 },
      { key: "b", y0: 5, y1: 5 },
      { key: "c", y0: 5, y1: 5 },
    ]);
  });

  it("finds the tallest stacked bar, not the tallest value", () => {
    const data = [{ values: { a: 9, b: 0 } }, { values: { a: 6, b: 6 } }];
    expect(stackedMax(data, ["a", "b"])).toBe(12);
    expect(stackedMax(data, ["a"])).toBe(9);
    expect(stackedMax([], ["a"])).toBe(0);
  });
});

describe("visibleLabels", () => {
  const days = Array.from({ length: 30 }, (_, i) => `Nov ${i + 1}`);

  it("keeps every label where there is room", () => {
    // The deliverability charts side by side at 1024 px: about 70 px a provider.
    expect([...visibleLabels(["Gmail", "Microsoft", "Yahoo", "Apple", "Other"], 70)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
  });

  it("skips labels on a crowded axis, always labelling the newest bucket", () => {
    const shown = [...visibleLabels(days, 20)].sort((a, b) => a - b);
    expect(shown).toContain(29);
    expect(shown.length).toBeLessThan(30);
    expect(shown.length).toBeGreaterThan(5);
  });

  it("never lets two drawn labels overlap", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 60 }), fc.double({ min: 1, max: 300, noNaN: true }), (labels, band) => {
        const shown = [...visibleLabels(labels, band)].sort((a, b) => a - b);
        const widest = Math.max(...labels.map((l) => textWidth(l)));
        expect(shown.at(-1)).toBe(labels.length - 1);
        shown.slice(1).forEach((i, k) => expect((i - shown[k]) * band).toBeGreaterThanOrEqual(widest));
      }),
    );
  });
});

describe("tooltipLeft", () => {
  it("puts the tooltip right of the bar, or left of it when it would leave the chart", () => {
    expect(tooltipLeft(100, 150, 600)).toBe(112);
    expect(tooltipLeft(500, 150, 600)).toBe(338);
  });

  it("keeps a tooltip wider than either side inside the chart", () => {
    expect(tooltipLeft(150, 200, 330)).toBe(0);
    expect(tooltipLeft(150, 400, 330)).toBe(0);
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 1200 }), (x, width, chart) => {
        const left = tooltipLeft(Math.min(x, chart), width, chart);
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left + width).toBeLessThanOrEqual(chart);
      }),
    );
  });
});

describe("nextIndex", () => {
  it("moves with the arrows, stops at the ends, and jumps with Home and End", () => {
    expect(nextIndex("ArrowRight", 3, 10)).toBe(4);
    expect(nextIndex("ArrowRight", 9, 10)).toBe(9);
    expect(nextIndex("ArrowLeft", 3, 10)).toBe(2);
    expect(nextIndex("ArrowLeft", 0, 10)).toBe(0);
    expect(nextIndex("Home", 5, 10)).toBe(0);
    expect(nextIndex("End", 5, 10)).toBe(9);
  });

  it("leaves other keys (Tab, page scrolling) to the browser", () => {
    expect(nextIndex("Tab", 3, 10)).toBeNull();
    expect(nextIndex("ArrowDown", 3, 10)).toBeNull();
    expect(nextIndex("ArrowRight", 0, 0)).toBeNull();
  });
});
