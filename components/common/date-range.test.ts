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

describe("date range edges", () => {
  it("refuses a day that does not exist rather than rolling into the next month", () => {
    expect(dayToIso("2026-02-31", "start")).toBeNull();
    expect(dayToIso("2026-13-01", "start")).toBeNull();
    expect(dayToIso("2028-02-29", "end")).not.toBeNull();
  });

  it("starts at local midnight and ends at the day's last millisecond", () => {
    const start = new Date(dayToIso("2026-07-04", "start")!);
    const end = new Date(dayToIso("2026-07-04", "end")!);
    expect([start.getHours(), start.getMinutes(), start.getSeconds(), start.getMilliseconds()]).toEqual([0, 0, 0, 0]);
    expect([end.getHours(), end.getMinutes(), end.getSeconds(), end.getMilliseconds()]).toEqual([23, 59, 59, 999]);
  });
});
