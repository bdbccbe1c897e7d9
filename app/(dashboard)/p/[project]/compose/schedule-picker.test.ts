import { describe, expect, it } from "vitest";
import { localToUtcIso } from "@/lib/messages/local-time";
import { localInputValue } from "./schedule-picker";

describe("localInputValue", () => {
  const at = Date.UTC(2026, 10, 21, 7, 0); // 21 Nov 2026 07:00 UTC

  it("reads the clock of the zone, minutes ahead", () => {
    expect(localInputValue("Europe/Paris", 60, at)).toBe("2026-11-21T09:00");
    expect(localInputValue("Asia/Kolkata", 0, at)).toBe("2026-11-21T12:30");
    expect(localInputValue("America/Los_Angeles", 0, at)).toBe("2026-11-20T23:00");
  });

  it("writes midnight as 00, which the date input takes", () => {
    expect(localInputValue("UTC", 17 * 60, at)).toBe("2026-11-22T00:00");
  });

  it("is the instant it names, back through the form's conversion", () => {
    for (const zone of ["Europe/Paris", "Asia/Kolkata", "Pacific/Auckland", "UTC"]) expect(localToUtcIso(localInputValue(zone, 90, at), zone)).toBe(new Date(at + 90 * 60_000).toISOString());
  });
});
