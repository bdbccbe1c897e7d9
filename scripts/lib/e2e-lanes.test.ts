import { describe, expect, it } from "vitest";
import { planLanes, runsAlone, suiteUnits, unitKey, type Unit } from "./e2e-lanes";
import { exactFile } from "./e2e-run";

const files = { specs: ["e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/d.spec.ts"], journeys: ["e2e/journeys/j.spec.ts", "e2e/journeys/k.spec.ts"] };

describe("the browser suite's lanes", () => {
  it("runs every spec and journey on the bundled service, and the journeys on the contrarian", () => {
    expect(suiteUnits(files).map(unitKey)).toEqual([
      "bundled e2e/a.spec.ts",
      "bundled e2e/b.spec.ts",
      "bundled e2e/c.spec.ts",
      "bundled e2e/d.spec.ts",
      "bundled e2e/journeys/j.spec.ts",
      "bundled e2e/journeys/k.spec.ts",
      "contrarian e2e/journeys/j.spec.ts",
      "contrarian e2e/journeys/k.spec.ts",
    ]);
  });

  it("puts each file in exactly one lane of its target, longest first onto the least loaded lane", () => {
    const units = suiteUnits(files);
    const durations = { "bundled e2e/a.spec.ts": 100, "bundled e2e/b.spec.ts": 60, "bundled e2e/c.spec.ts": 50, "bundled e2e/d.spec.ts": 10, "contrarian e2e/journeys/j.spec.ts": 5 };
    const lanes = planLanes(units, { bundled: 2, contrarian: 1 }, durations);
    expect(lanes.map((l) => [l.name, l.files, l.estimate])).toEqual([
      // j and k were not measured on the bundled service: each counts as the median (50).
      ["bundled-1", ["e2e/a.spec.ts", "e2e/journeys/j.spec.ts", "e2e/d.spec.ts"], 160],
      ["bundled-2", ["e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/journeys/k.spec.ts"], 160],
      ["contrarian-1", ["e2e/journeys/k.spec.ts", "e2e/journeys/j.spec.ts"], 55],
    ]);
    const planned: Unit[] = lanes.flatMap((l) => l.files.map((file) => ({ file, target: l.target })));
    expect(planned.map(unitKey).sort()).toEqual(units.map(unitKey).sort());
  });

  it("never makes more lanes than files", () => {
    expect(planLanes(suiteUnits({ specs: ["e2e/a.spec.ts"], journeys: [] }), { bundled: 3, contrarian: 1 }, {}).map((l) => l.name)).toEqual(["bundled-1"]);
  });

  it("knows the specs that measure latency by their marker, and runs them alone", () => {
    expect(runsAlone("e2e/batch-check-load.spec.ts")).toBe(true);
    expect(runsAlone("e2e/demo.spec.ts")).toBe(true);
    expect(runsAlone("e2e/shell.spec.ts")).toBe(false);
    expect(runsAlone("e2e/no-such.spec.ts")).toBe(false);
  });

  it("names a file to Playwright so that no other file matches", () => {
    const filter = new RegExp(exactFile("e2e/shell.spec.ts"));
    expect(filter.test("/repo/e2e/shell.spec.ts")).toBe(true);
    expect(filter.test("/repo/e2e/journeys/shell.spec.ts")).toBe(false);
    expect(filter.test("/repo/e2e/shellXspec.ts")).toBe(false);
    expect(filter.test("/repo/e2e/shell.spec.ts.orig")).toBe(false);
  });
});
