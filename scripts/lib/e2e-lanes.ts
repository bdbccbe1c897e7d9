import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./paths";
import { keptTimes } from "./kept-times";
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
 * run has ended, one such file at a time (in one lane, `aloneLanes` in ./e2e-run.ts): one
 * that measures the dashboard's latency, which
 * other lanes and test passes computing beside it would move (e2e/batch-check-load.spec.ts),
 * or that must finish a large amount of work within a time limit (e2e/demo.spec.ts).
 */
export const ALONE_MARKER = "@e2e-alone";

export const runsAlone = (file: string, root = ROOT): boolean => holdsMarker(file, ALONE_MARKER, root);

/**
 * A spec that runs alone and holds this marker too needs a stack with the bundled service's
 * 30-day demo history (e2e/demo.spec.ts): it runs in a lane of its own whose stack has the
 * history on, before the other specs that run alone. That stack starts with theirs, while the
 * last lane finishes (`startEarly` in ./e2e-run.ts), so the month is handed over beside that
 * lane's end, on a core it leaves idle, rather than on a machine waiting for it; the lane and
 * its stack have stopped before the specs that measure latency begin.
 */
export const DEMO_HISTORY_MARKER = "@e2e-demo-history";

export const needsDemoHistory = (file: string, root = ROOT): boolean => holdsMarker(file, DEMO_HISTORY_MARKER, root);

/**
 * A spec file that holds this marker waits for the dashboard's alert check to raise an alert
 * (e2e/alerts.spec.ts): its lane's dashboard checks every 2 s. Every other lane keeps the
 * dashboard's own interval: at 2 s the check was 40 % of an idle dashboard's CPU (48 ms a
 * second against 28 at 60 s, one stack, 60 s idle), in every lane of the run.
 */
export const FAST_ALERTS_MARKER = "@e2e-fast-alerts";

export const needsFastAlerts = (file: string, root = ROOT): boolean => holdsMarker(file, FAST_ALERTS_MARKER, root);

/** A lane of the files the run was given (arguments: files, a --grep) does not know them (no `files`): it checks every 2 s. */
export const checksAlertsFast = (lane: Pick<Lane, "files">, root = ROOT): boolean => lane.files.length === 0 || lane.files.some((file) => needsFastAlerts(file, root));

/** What Playwright records of each test: playwright.config.ts reads it from E2E_TRACE. */
const TRACE_MODES = ["off", "retain-on-failure", "on"] as const;
type TraceMode = (typeof TRACE_MODES)[number];

/**
 * The whole suite's lanes record no trace; a run of the files given as arguments (a lane that
 * does not list them) keeps the trace of each failed test, as every run did before.
 * Recording costs every test, failed or not: its DOM before and after each action, its
 * network with every body, each written out as it happens. Support's pass over every screen
 * (e2e/access.spec.ts) took 41-43 s and 122-130 CPU-s of the whole machine without, against
 * 47-50 s and 137-141 CPU-s with (4 runs each, one lane, its stack included). A failure in
 * the suite still leaves its error-context.md (the page's accessibility tree when it failed)
 * and screenshot; rerun the file alone, or set E2E_TRACE, for its trace.
 */
export function traceFor(lane: Pick<Lane, "files">, requested = process.env.E2E_TRACE): TraceMode {
  if (requested) return traceMode(requested);
  return lane.files.length === 0 ? "retain-on-failure" : "off";
}

/** Playwright's `trace` option for the lane's mode (playwright.config.ts); Playwright run directly keeps failures' traces. */
export function playwrightTrace(requested = process.env.E2E_TRACE ?? "retain-on-failure") {
  const mode = traceMode(requested);
  return mode === "off" ? mode : ({ mode, screenshots: false } as const);
}

function traceMode(value: string): TraceMode {
  if (!(TRACE_MODES as readonly string[]).includes(value)) throw new Error(`E2E_TRACE must be one of ${TRACE_MODES.join(", ")}, not "${value}"`);
  return value as TraceMode;
}

function holdsMarker(file: string, marker: string, root: string): boolean {
  try {
    return readFileSync(path.join(root, file), "utf8").includes(marker);
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
  /** Its stack has the bundled service's 30-day demo history on (DEMO_HISTORY_MARKER). */
  demoHistory?: boolean;
  /**
   * The lane after which this one starts, in its place (on a stack of its own, of its own target): a
   * target with little to run (the contrarian's journeys) ends early, and the bundled
   * service's files go on in its place instead of leaving it idle. None: starts at once.
   */
  after?: string;
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

/** Seconds each file took, by unitKey (./kept-times.ts: this checkout's last run over the committed table). */
export const E2E_TIMES = keptTimes<Record<string, number>>("e2e-durations.json");

export function readDurations(): Record<string, number> {
  return E2E_TIMES.read() as Record<string, number>;
}

/** Seconds a lane takes before its first test: a stack starting, the personas signing in. */
export const LANE_START_S = 25;

/**
 * Spreads the units over lanes, `lanes[target]` lanes per service target running side by
 * side from the start, so that they end about together: longest first, each to the lane with
 * the least so far (LPT). The target with the most to run (the bundled service) also goes on
 * after each lane of the others ends, in its place (a lane with `after`): the others' few
 * files leave their lane idle long before the end otherwise, and a lane mostly waits (on the
 * service's lifecycle steps, a scheduled send), so the number of lanes at a time stays the
 * same (`follow: true`, E2E_FOLLOW=1; off by default: on CI's two cores the third stack
 * starved the services, and tests waiting on their lifecycle ran out of time). A file not measured yet
 * counts as the median of those that were.
 */
export function planLanes(units: Unit[], lanes: Record<ServiceTarget, number>, durations: Record<string, number>, opts: { follow?: boolean } = {}): Lane[] {
  const known = Object.values(durations).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 30;
  const estimate = (u: Unit) => durations[unitKey(u)] ?? fallback;
  const work = (target: ServiceTarget) => units.filter((u) => u.target === target).reduce((sum, u) => sum + estimate(u), 0);
  const targets = (Object.keys(lanes) as ServiceTarget[]).filter((t) => units.some((u) => u.target === t));
  // The target with the most to run goes last: it fills in after the others' lanes.
  const filler = [...targets].sort((a, b) => work(b) - work(a))[0];
  const spread = (mine: Unit[], targetLanes: Lane[]) => {
    for (const unit of [...mine].sort((a, b) => estimate(b) - estimate(a) || a.file.localeCompare(b.file))) {
      const lane = targetLanes.reduce((least, l) => (l.estimate < least.estimate ? l : least));
      lane.files.push(unit.file);
      lane.estimate += estimate(unit);
    }
  };
  const plan: Lane[] = [];
  for (const target of targets.filter((t) => t !== filler)) {
    const mine = units.filter((u) => u.target === target);
    const count = Math.max(1, Math.min(lanes[target], mine.length));
    const targetLanes: Lane[] = Array.from({ length: count }, (_, i) => ({ name: `${target}-${i + 1}`, target, files: [], estimate: 0 }));
    spread(mine, targetLanes);
    plan.push(...targetLanes);
  }
  if (filler) {
    const mine = units.filter((u) => u.target === filler);
    const count = Math.max(1, Math.min(lanes[filler], mine.length));
    const own: Lane[] = Array.from({ length: count }, (_, i) => ({ name: `${filler}-${i + 1}`, target: filler, files: [], estimate: 0 }));
    // `estimate` of a lane that follows another counts from the start of the run while
    // planning (where its place becomes free), and its own files' time once planned.
    const following: Lane[] = (opts.follow === false ? [] : plan).map((before, i) => ({ name: `${filler}-${count + i + 1}`, target: filler, files: [], estimate: before.estimate + LANE_START_S, after: before.name }));
    spread(mine, [...own, ...following]);
    for (const lane of following) lane.estimate -= plan.find((p) => p.name === lane.after)!.estimate + LANE_START_S;
    plan.push(...own, ...following.filter((l) => l.files.length > 0));
  }
  for (const lane of plan) lane.estimate = Math.round(lane.estimate);
  return plan;
}

/**
 * The lanes as chains to run side by side: each chain a lane that starts at once, then the
 * lanes that start after it, one after another.
 */
export function laneChains(plan: Lane[]): Lane[][] {
  return plan
    .filter((l) => !l.after)
    .map((first) => {
      const chain = [first];
      for (let next = plan.find((l) => l.after === first.name); next; next = plan.find((l) => l.after === chain[chain.length - 1].name)) chain.push(next);
      return chain;
    });
}

/**
 * Runs `chains` side by side, each chain's lanes one after another, and gives every lane's
 * result in chain order. `whenOneLeft` is called once all chains but one have ended (the next
 * round's stacks start then, on what the last lane leaves idle), never for a single chain.
 */
export async function runChains<L, R>(chains: L[][], run: (lane: L) => Promise<R>, hooks: { whenOneLeft?: () => void } = {}): Promise<R[]> {
  let running = chains.length;
  const results = await Promise.all(
    chains.map(async (chain) => {
      const done: R[] = [];
      for (const lane of chain) done.push(await run(lane));
      if (--running === 1) hooks.whenOneLeft?.();
      return done;
    }),
  );
  return results.flat();
}
