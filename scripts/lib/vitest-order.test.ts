import { describe, expect, it } from "vitest";
import { longestFirst } from "./vitest-order";
import { passOf } from "./vitest-durations";

describe("Vitest's order", () => {
  it("runs the longest files first, files with no time before all, and keeps the given order on ties", () => {
    const times: Record<string, number> = { short: 1, long: 30, middle: 5, "also-short": 1 };
    expect(longestFirst(["short", "middle", "new", "long", "also-short", "newer"], (f) => times[f])).toEqual(["new", "newer", "long", "middle", "short", "also-short"]);
  });

  it("reads the times of the pass being run: Postgres when TEST_DATABASE_URL is set", () => {
    expect(passOf({ TEST_DATABASE_URL: "postgres://x" })).toBe("postgres");
    expect(passOf({})).toBe("pglite");
  });
});
