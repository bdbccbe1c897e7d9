import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testsOf, type PlaywrightReport } from "./e2e-run";
import { firstLines, printFailures } from "./failures";
import { ROOT } from "./paths";
import { failuresOf, type VitestReport } from "./vitest-run";

afterEach(() => vi.restoreAllMocks());

describe("the failed tests named again at a run's end", () => {
  it("takes each failed Vitest test, and a file that failed before any test ran, from the JSON report", () => {
    const report: VitestReport = {
      testResults: [
        {
          name: path.join(ROOT, "lib/a.test.ts"),
          status: "failed",
          assertionResults: [
            { fullName: "a keeps b", status: "passed", failureMessages: [] },
            { fullName: "a refuses c", status: "failed", failureMessages: ["AssertionError: expected 1 to be 2\n    at lib/a.test.ts:9:3"] },
          ],
        },
        { name: path.join(ROOT, "lib/b.test.ts"), status: "failed", message: "Cannot find module './gone'", assertionResults: [] },
        { name: path.join(ROOT, "lib/c.test.ts"), status: "passed", assertionResults: [{ fullName: "c", status: "passed" }] },
      ],
    };
    expect(failuresOf(report, "postgres")).toEqual([
      { part: "postgres", name: "lib/a.test.ts › a refuses c", message: "AssertionError: expected 1 to be 2\n    at lib/a.test.ts:9:3" },
      { part: "postgres", name: "lib/b.test.ts", message: "Cannot find module './gone'" },
    ]);
  });

  it("marks a browser test that failed on its last try with that try's error, and no other", () => {
    const report: PlaywrightReport = {
      suites: [
        {
          file: "x.spec.ts",
          title: "x.spec.ts",
          specs: [
            { title: "passes", file: "x.spec.ts", tests: [{ projectName: "chromium", status: "expected", results: [{ duration: 1000, status: "passed" }] }] },
            {
              title: "breaks",
              file: "x.spec.ts",
              tests: [{ projectName: "chromium", status: "unexpected", results: [{ duration: 2000, status: "failed", error: { message: "expect(locator).toBeVisible() failed" } }] }],
            },
          ],
        },
      ],
    };
    const tests = testsOf(report, "bundled-1");
    expect(tests.map((t) => [t.title, t.failure])).toEqual([
      ["passes", undefined],
      ["breaks", "expect(locator).toBeVisible() failed"],
    ]);
  });

  it("prints each failure's first lines without colours, and nothing when all passed", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    printFailures([]);
    expect(log).not.toHaveBeenCalled();
    printFailures([{ part: "Vitest", name: "lib/a.test.ts › a refuses c", message: "\u001b[31mAssertionError\u001b[39m: no\n\n  line 2\n  line 3\n  line 4\n  line 5" }]);
    const printed = log.mock.calls.map((c) => String(c[0])).join("\n");
    expect(printed).toContain("=== Failed: 1 test ===");
    expect(printed).toContain("✘ lib/a.test.ts › a refuses c  (Vitest)");
    expect(printed).toContain("AssertionError: no");
    expect(printed).not.toContain("\u001b[");
    expect(printed).toContain("line 4");
    expect(printed).not.toContain("line 5");
  });

  it("cuts a long line", () => {
    expect(firstLines("x".repeat(500))).toBe(`${"x".repeat(200)}…`);
  });
});
