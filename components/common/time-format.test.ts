import { describe, expect, it } from "vitest";
import { formatAbsolute, formatRelative, formatUtc, toDate } from "@/components/common/time-format";

const now = new Date("2026-03-10T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

describe("formatRelative", () => {
  it("says just now, minutes, hours and days", () => {
    expect(formatRelative(ago(10_000), now)).toBe("just now");
    expect(formatRelative(ago(3 * 60_000), now)).toBe("3 min ago");
    expect(formatRelative(ago(50_000), now)).toBe("1 min ago");
    expect(formatRelative(ago(2 * 3_600_000), now)).toBe("2 h ago");
    expect(formatRelative(ago(26 * 3_600_000), now)).toBe("yesterday");
    expect(formatRelative(ago(5 * 86_400_000), now)).toBe("5 days ago");
  });

  it("speaks of the future for scheduled sends", () => {
    expect(formatRelative(new Date(now.getTime() + 15 * 60_000), now)).toBe("in 15 min");
    expect(formatRelative(new Date(now.getTime() + 3 * 3_600_000), now)).toBe("in 3 h");
    expect(formatRelative(new Date(now.getTime() + 86_400_000), now)).toBe("tomorrow");
  });

  it("gives a date past a month", () => {
    expect(formatRelative(new Date("2026-01-02T12:00:00Z"), now)).toMatch(/Jan/);
    expect(formatRelative(new Date("2024-01-02T12:00:00Z"), now)).toMatch(/2024/);
  });
});

describe("absolute times", () => {
  it("formats in UTC and in a named zone", () => {
    const d = new Date("2026-01-31T09:00:05Z");
    expect(formatUtc(d)).toBe("2026-01-31 09:00:05 UTC");
    expect(formatAbsolute(d, "Europe/Paris")).toMatch(/^31 Jan 2026, 10:00:05 (CET|GMT\+1)$/);
    expect(formatAbsolute(d, "America/New_York")).toMatch(/^31 Jan 2026, 04:00:05 /);
  });

  it("refuses invalid input rather than printing Invalid Date", () => {
    expect(toDate("not a date")).toBeNull();
    expect(toDate("2026-01-31T09:00:05Z")?.toISOString()).toBe("2026-01-31T09:00:05.000Z");
  });
});

describe("dates without a date library", () => {
  it("names every month the same way whatever the platform's locale data", () => {
    const months = Array.from({ length: 12 }, (_, m) => formatUtc(new Date(Date.UTC(2026, m, 15, 12))).slice(5, 7));
    expect(months).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"]);
    expect(formatAbsolute(new Date("2026-09-15T12:00:00Z"), "UTC")).toBe("15 Sep 2026, 12:00:00 UTC");
  });

  it("shows midnight as 00, not 24", () => {
    expect(formatUtc(new Date("2026-01-01T00:00:07Z"))).toBe("2026-01-01 00:00:07 UTC");
    expect(formatAbsolute(new Date("2026-01-01T00:30:00Z"), "UTC")).toBe("1 Jan 2026, 00:30:00 UTC");
  });
});
