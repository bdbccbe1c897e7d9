import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, fromRoot } from "./paths";
import type { ServiceTarget } from "./stack";

/**
 * The browser suite runs in lanes: each lane is a stack of its own (service, built dashboard,
 * data, signed-in personas) and a Playwright process over some of the spec files, one file
 * after another. Lanes run side by side: most of a browser test's time is spent waiting (on
 * the service's lifecycle, a scheduled send, the dashboard's timers), not computing, and a
 * lane's files share nothing with another lane's. Within a lane the files run as they always
 * have, one at a time against one stack.
 */

/**
 * A spec file that holds this marker in a comment runs alone, after everything else of the
 * run has ended, on a stack of its own: one that measures the dashboard's latency, which
 * other lanes and test passes computing beside it would move (e2e/batch-check-load.spec.ts),
 * or that must finish a large amount of work within a time limit (e2e/demo.spec.ts).
 */
export const ALONE_MARKER = "@e2e-alone";

export function runsAlone(file: string, root = ROOT): boolean {
  try {
    return readFileSync(path.join(root, file), "utf8").includes(ALONE_MARKER);
  } catch {
    return false;
  }
}

/** A spec file (relative to the repository, with forward slashes) and the service it runs against. */
export interface Unit {
  file: string;
  target: ServiceTarget;
}

export interface Lane {
  /** Short name for logs and reports: "bundled-1", "contrarian-1". */
  name: string;
  target: ServiceTarget;
  files: string[];
  /** Seconds the files took last time, summed (what the plan balanced). */
  estimate: number;
}

const SPEC = /\.spec\.ts$/;

/** The spec files under e2e/ (journeys included, the contrarian's own tests excluded), sorted. */
export function specFiles(root = ROOT): { specs: string[]; journeys: string[] } {
  const list = (dir: string) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir))
          .filter((f) => SPEC.test(f))
          .map((f) => `${dir}/${f}`)
          .sort()
      : [];
  return { specs: list("e2e"), journeys: list("e2e/journeys") };
}

/**
 * What the whole suite runs: on the bundled service every spec and journey, on the contrarian
 * the journeys (the other specs are written for the bundled service's seed and addresses).
 */
export function suiteUnits(files = specFiles()): Unit[] {
  return [
    ...[...files.specs, ...files.journeys].map((file) => ({ file, target: "bundled" as const })),
    ...files.journeys.map((file) => ({ file, target: "contrarian" as const })),
  ];
}

export const unitKey = (u: Unit) => `${u.target} ${u.file}`;

/**
 * Seconds each file took, by unitKey: the last run's own measurement in this checkout when
 * there is one (test-results/), else the one committed beside this file (a fresh clone, CI).
 */
export const DURATIONS_COMMITTED = fromRoot("scripts", "lib", "e2e-durations.json");
export const DURATIONS_LAST_RUN = fromRoot("test-results", "e2e-durations.json");

export function readDurations(): Record<string, number> {
  const read = (file: string): Record<string, number> => {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
    } catch {
      return {};
    }
  };
  return { ...read(DURATIONS_COMMITTED), ...read(DURATIONS_LAST_RUN) };
}

/**
 * Spreads the units over lanes, `lanes[target]` lanes per service target, so that the lanes
 * end about together: longest first, each to the lane with the least so far (LPT). A file
 * not measured yet counts as the median of those that were.
 */
export function planLanes(units: Unit[], lanes: Record<ServiceTarget, number>, durations: Record<string, number>): Lane[] {
  const known = Object.values(durations).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 30;
  const estimate = (u: Unit) => durations[unitKey(u)] ?? fallback;
  const plan: Lane[] = [];
  for (const target of Object.keys(lanes) as ServiceTarget[]) {
    const mine = units.filter((u) => u.target === target);
    if (mine.length === 0) continue;
    const count = Math.max(1, Math.min(lanes[target], mine.length));
    const targetLanes: Lane[] = Array.from({ length: count }, (_, i) => ({ name: `${target}-${i + 1}`, target, files: [], estimate: 0 }));
    for (const unit of [...mine].sort((a, b) => estimate(b) - estimate(a) || a.file.localeCompare(b.file))) {
      const lane = targetLanes.reduce((least, l) => (l.estimate < least.estimate ? l : least));
      lane.files.push(unit.file);
      lane.estimate += estimate(unit);
    }
    for (const lane of targetLanes) lane.estimate = Math.round(lane.estimate);
    plan.push(...targetLanes);
  }
  return plan;
}
