import { describe, expect, it } from "vitest";
import { checksAlertsFast, laneChains, needsFastAlerts, planLanes, playwrightTrace, runChains, runsAlone, suiteUnits, traceFor, unitKey, type Unit } from "./e2e-lanes";
import { aloneLanes, exactFile } from "./e2e-run";

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
    expect(lanes.map((l) => [l.name, l.files, l.estimate, l.after])).toEqual([
      // k was not measured on the contrarian, nor j and k on the bundled service: each counts as the median (50).
      ["contrarian-1", ["e2e/journeys/k.spec.ts", "e2e/journeys/j.spec.ts"], 55, undefined],
      ["bundled-1", ["e2e/a.spec.ts", "e2e/journeys/k.spec.ts"], 150, undefined],
      ["bundled-2", ["e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/d.spec.ts"], 120, undefined],
      // The bundled files go on where the contrarian's lane ends (at 55 s, and a stack's start).
      ["bundled-3", ["e2e/journeys/j.spec.ts"], 50, "contrarian-1"],
    ]);
    const planned: Unit[] = lanes.flatMap((l) => l.files.map((file) => ({ file, target: l.target })));
    expect(planned.map(unitKey).sort()).toEqual(units.map(unitKey).sort());
    expect(laneChains(lanes).map((chain) => chain.map((l) => l.name))).toEqual([["contrarian-1", "bundled-3"], ["bundled-1"], ["bundled-2"]]);
  });

  it("leaves the other targets' lanes idle once they end unless asked (the default; E2E_FOLLOW=1 fills them)", () => {
    const durations = { "bundled e2e/a.spec.ts": 100, "bundled e2e/b.spec.ts": 60, "bundled e2e/c.spec.ts": 50, "bundled e2e/d.spec.ts": 10, "contrarian e2e/journeys/j.spec.ts": 5 };
    const lanes = planLanes(suiteUnits(files), { bundled: 2, contrarian: 1 }, durations, { follow: false });
    expect(lanes.map((l) => l.name)).toEqual(["contrarian-1", "bundled-1", "bundled-2"]);
    expect(lanes.flatMap((l) => l.files)).toHaveLength(8);
  });

  it("adds no lane after another when nothing is left to run there", () => {
    const durations = { "bundled e2e/a.spec.ts": 10, "bundled e2e/b.spec.ts": 10, "contrarian e2e/journeys/j.spec.ts": 100 };
    const lanes = planLanes(suiteUnits({ specs: ["e2e/a.spec.ts", "e2e/b.spec.ts"], journeys: ["e2e/journeys/j.spec.ts"] }), { bundled: 2, contrarian: 1 }, durations);
    expect(lanes.map((l) => [l.name, l.files])).toEqual([
      ["bundled-1", ["e2e/a.spec.ts", "e2e/journeys/j.spec.ts"]],
      ["bundled-2", ["e2e/b.spec.ts"]],
      // The contrarian has the most to run here: it is the one that would go on after the others.
      ["contrarian-1", ["e2e/journeys/j.spec.ts"]],
    ]);
    expect(laneChains(lanes).map((chain) => chain.map((l) => l.name))).toEqual([["bundled-1"], ["bundled-2"], ["contrarian-1"]]);
  });

  it("runs the specs that run alone in one lane per target, one after another", () => {
    expect(aloneLanes([{ file: "e2e/a.spec.ts", target: "bundled" }, { file: "e2e/b.spec.ts", target: "bundled" }]).map((l) => [l.name, l.files])).toEqual([
      ["bundled-alone", ["e2e/a.spec.ts", "e2e/b.spec.ts"]],
    ]);
  });

  it("runs the spec that needs the demo's month first, in a lane of its own whose stack has it", () => {
    const lanes = aloneLanes([{ file: "e2e/batch-check-load.spec.ts", target: "bundled" }, { file: "e2e/demo.spec.ts", target: "bundled" }]);
    expect(lanes.map((l) => [l.name, l.files, l.demoHistory ?? false])).toEqual([
      ["bundled-demo", ["e2e/demo.spec.ts"], true],
      ["bundled-alone", ["e2e/batch-check-load.spec.ts"], false],
    ]);
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

  it("knows the specs that wait for an alert by their marker", () => {
    expect(needsFastAlerts("e2e/alerts.spec.ts")).toBe(true);
    expect(needsFastAlerts("e2e/shell.spec.ts")).toBe(false);
    expect(needsFastAlerts("e2e/no-such.spec.ts")).toBe(false);
    expect(checksAlertsFast({ files: ["e2e/shell.spec.ts", "e2e/alerts.spec.ts"] })).toBe(true);
    expect(checksAlertsFast({ files: ["e2e/shell.spec.ts", "e2e/phone.spec.ts"] })).toBe(false);
    // A run of the files given as arguments: its lane does not list them.
    expect(checksAlertsFast({ files: [] })).toBe(true);
  });

  it("records traces only when files are run by name, unless E2E_TRACE says otherwise", () => {
    expect(traceFor({ files: ["e2e/shell.spec.ts"] }, undefined)).toBe("off");
    expect(traceFor({ files: [] }, undefined)).toBe("retain-on-failure");
    expect(traceFor({ files: ["e2e/shell.spec.ts"] }, "retain-on-failure")).toBe("retain-on-failure");
    expect(traceFor({ files: [] }, "on")).toBe("on");
    expect(() => traceFor({ files: [] }, "sometimes")).toThrow(/E2E_TRACE must be one of off, retain-on-failure, on, not "sometimes"/);
    expect(playwrightTrace("off")).toBe("off");
    expect(playwrightTrace("retain-on-failure")).toEqual({ mode: "retain-on-failure", screenshots: false });
    expect(() => playwrightTrace("yes")).toThrow(/E2E_TRACE/);
  });

  it("names a file to Playwright so that no other file matches", () => {
    const filter = new RegExp(exactFile("e2e/shell.spec.ts"));
    expect(filter.test("/repo/e2e/shell.spec.ts")).toBe(true);
    expect(filter.test("/repo/e2e/journeys/shell.spec.ts")).toBe(false);
    expect(filter.test("/repo/e2e/shellXspec.ts")).toBe(false);
    expect(filter.test("/repo/e2e/shell.spec.ts.orig")).toBe(false);
  });
});

describe("runChains (lanes side by side, a chain's lanes one after another)", () => {
  /** A lane that ends when the test says so, and the order things happened in. */
  function lanes() {
    const events: string[] = [];
    const ends = new Map<string, () => void>();
    const started = new Map<string, Promise<void>>();
    const starts = new Map<string, () => void>();
    const run = (name: string) => {
      events.push(`start ${name}`);
      starts.get(name)?.();
      return new Promise<string>((resolve) => ends.set(name, () => (events.push(`end ${name}`), resolve(name))));
    };
    const whenStarted = (name: string) => started.get(name) ?? (started.set(name, new Promise((r) => starts.set(name, r))), started.get(name)!);
    const end = async (name: string) => {
      await whenStarted(name);
      ends.get(name)!();
    };
    return { events, run, whenStarted, end };
  }

  it("calls whenOneLeft once, when all chains but one have ended, and gives the results in chain order", async () => {
    const l = lanes();
    for (const name of ["a1", "a2", "b", "c"]) l.whenStarted(name);
    const done = runChains([["a1", "a2"], ["b"], ["c"]], l.run, { whenOneLeft: () => l.events.push("one left") });
    await l.end("b");
    await l.end("a1");
    await l.end("c");
    await l.whenStarted("a2");
    expect(l.events).toEqual(["start a1", "start b", "start c", "end b", "end a1", "start a2", "end c", "one left"]);
    await l.end("a2");
    expect(await done).toEqual(["a1", "a2", "b", "c"]);
    expect(l.events.filter((e) => e === "one left")).toHaveLength(1);
  });

  it("never calls whenOneLeft for a single chain", async () => {
    const l = lanes();
    l.whenStarted("x");
    const done = runChains([["x"]], l.run, { whenOneLeft: () => l.events.push("one left") });
    await l.end("x");
    await done;
    expect(l.events).toEqual(["start x", "end x"]);
  });
});
