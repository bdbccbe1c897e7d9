import { describe, expect, it } from "vitest";
import { dayToIso, isoToDay } from "@/components/common/date-range";

describe("date range", () => {
  it("turns a local day into the instants at its edges and back", () => {
    const start = dayToIso("2026-01-31", "start")!;
    const end = dayToIso("2026-01-31", "end")!;
    expect(new Date(end).getTime() - new Date(start).getTime()).toBe(24 * 3600_000 - 1);
    expect(isoToDay(start)).toBe("2026-01-31");
    expect(isoToDay(end)).toBe("2026-01-31");
  });

  it("refuses what is not a day", () => {
    expect(dayToIso("31/01/2026", "start")).toBeNull();
    expect(dayToIso("", "end")).toBeNull();
    expect(isoToDay("nonsense")).toBe("");
    expect(isoToDay(undefined)).toBe("");
  });
});
