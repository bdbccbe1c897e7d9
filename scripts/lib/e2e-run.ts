import { existsSync, readFileSync, rmSync } from "node:fs";
import { ensureTestChromium } from "./chromium";
import { startChild } from "./child";
import type { Counts } from "./counts";
import { openGateWhen } from "./quiet-gate";
import { E2E_TIMES, checksAlertsFast, laneChains, needsDemoHistory, planLanes, readDurations, runChains, runsAlone, suiteUnits, traceFor, unitKey, type Lane, type Unit } from "./e2e-lanes";
import { BIN, ROOT, fromRoot } from "./paths";
import { withRunLock } from "./run-lock";
import { buildTestDashboard, SERVICE_TARGETS, startStack, TEST_REAUTH_MAX_AGE_S, type ServiceTarget, type Stack } from "./stack";
import { timeScale } from "./time-scale";

const LOG_ROOT = fromRoot("test-results", "e2e-logs");
/** Playwright's JSON report of one lane's run (playwright.config.ts reads E2E_REPORT_FILE). */
export const e2eReport = (lane: string) => fromRoot("test-results", `e2e-report-${lane}.json`);

/** The Playwright project of the journeys, the specs run against every service target. */
export const JOURNEYS_PROJECT = "journeys";

/**
 * Lanes per service target for the whole suite (scripts/lib/e2e-lanes.ts). The bundled
 * service's files take about six times as long as the contrarian's journeys. Two bundled
 * lanes: on two cores a third lane made every lane slower by as much as it added (each test
 * took about twice as long), and tests waiting on a starved service ran out of time. E2E_LANES
 * changes the bundled count (1 runs its files one after another, as before lanes).
 */
export function laneCounts(env = process.env.E2E_LANES): Record<ServiceTarget, number> {
  const bundled = env ? Number(env) : 2;
  if (!Number.isInteger(bundled) || bundled < 1 || bundled > 8) throw new Error(`E2E_LANES must be a whole number from 1 to 8, not "${env}"`);
  return { bundled, contrarian: 1 };
}

interface ReportResult {
  duration: number;
  status: string;
  error?: { message?: string };
}
interface ReportSpec {
  title: string;
  file: string;
  tests: { projectName: string; status?: string; results: ReportResult[] }[];
}
interface ReportSuite {
  file?: string;
  title?: string;
  specs?: ReportSpec[];
  suites?: ReportSuite[];
}
export interface PlaywrightReport {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
  suites?: ReportSuite[];
}

/** One browser test as a run's report has it. */
export interface BrowserTest {
  lane: string;
  file: string;
  title: string;
  project: string;
  seconds: number;
  /** Failed on its last try (Playwright's "unexpected"): what it said then. */
  failure?: string;
}

export interface E2EResult {
  counts: Counts;
  tests: BrowserTest[];
}

function readReport(file: string): PlaywrightReport | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as PlaywrightReport;
  } catch {
    return null;
  }
}

function countsOf(report: PlaywrightReport | null): Counts | null {
  const stats = report?.stats;
  if (!stats) return null;
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
}

/** Every test of a report with its time (all its attempts), in report order. */
export function testsOf(report: PlaywrightReport | null, lane: string): BrowserTest[] {
  const out: BrowserTest[] = [];
  const walk = (suite: ReportSuite, titles: string[]) => {
    const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const seconds = test.results.reduce((sum, r) => sum + r.duration, 0) / 1000;
        const entry: BrowserTest = { lane, file: `e2e/${spec.file}`, title: [...here, spec.title].join(" › "), project: test.projectName, seconds };
        if (test.status === "unexpected") entry.failure = test.results.at(-1)?.error?.message ?? `ended ${test.results.at(-1)?.status ?? "without a result"}`;
        out.push(entry);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return out;
}

/**
 * Which services to run against. E2E_TARGET names one (`bundled`, `contrarian`). Without it:
 * the whole suite (no arguments), or arguments naming the journeys, run on both; arguments
 * naming other specs run on the bundled service only, where those specs belong.
 */
export function targetsFor(args: string[], named = process.env.E2E_TARGET): ServiceTarget[] {
  if (named) {
    if (!(SERVICE_TARGETS as readonly string[]).includes(named)) throw new Error(`E2E_TARGET must be one of ${SERVICE_TARGETS.join(", ")}, not "${named}"`);
    return [named as ServiceTarget];
  }
  const files = args.filter((a) => !a.startsWith("-"));
  if (files.length === 0 || files.some((a) => a.includes("journeys"))) return [...SERVICE_TARGETS];
  return ["bundled"];
}

/** A Playwright file filter that matches this one file only (the CLI reads each filter as a regular expression). */
export const exactFile = (file: string) => `/${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;

/**
 * Which part of the whole suite a call runs: the lanes side by side, the specs that run alone
 * (one after another, see ALONE_MARKER), or both, the lanes first.
 */
export type SuitePart = "lanes" | "alone" | "all";

/** A lane and the Playwright arguments that select its files. */
interface LaneRun {
  lane: Lane;
  args: string[];
}

/**
 * The specs that run alone, in one lane per target, run one after another: Playwright runs
 * a lane's files one after another in one process, so nothing else computes beside any of
 * them, and the stack, the sign-ins and Playwright's start are paid once rather than once
 * per file (about 20 s each). The specs that need more than the lane's stack (the abuse
 * suite) start their own in `beforeAll` and stop it after. The one that needs the demo's
 * month (DEMO_HISTORY_MARKER) comes first, in a lane of its own whose stack has it.
 */
export function aloneLanes(alone: Unit[], root?: string): Lane[] {
  const targets = [...new Set(alone.map((u) => u.target))];
  const lanes = (demoHistory: boolean) =>
    targets.flatMap((target): Lane[] => {
      const files = alone.filter((u) => u.target === target && needsDemoHistory(u.file, root) === demoHistory).map((u) => u.file);
      if (files.length === 0) return [];
      return [{ name: `${target}-${demoHistory ? "demo" : "alone"}`, target, files, estimate: 0, ...(demoHistory ? { demoHistory } : {}) }];
    });
  return [...lanes(true), ...lanes(false)];
}

/**
 * What runs: with no arguments (and no E2E_TARGET) the whole suite, spread over lanes that
 * run side by side, then the specs that run alone; with arguments (a file, `--grep`, ...),
 * one lane per target given them. Each round is a list of chains run side by side; a chain's
 * lanes run one after another (see `after` in scripts/lib/e2e-lanes.ts).
 */
function plan(args: string[], part: SuitePart): LaneRun[][][] {
  const run = (lane: Lane): LaneRun => ({ lane, args: lane.files.map(exactFile) });
  if (args.length === 0 && !process.env.E2E_TARGET) {
    const units = suiteUnits();
    const together = units.filter((u) => !runsAlone(u.file));
    const alone = units.filter((u) => runsAlone(u.file));
    const lanes = laneChains(planLanes(together, laneCounts(), readDurations(), { follow: process.env.E2E_FOLLOW === "1" })).map((chain) => chain.map(run));
    // One chain: its lanes one after another.
    const solos = [aloneLanes(alone).map(run)];
    return [...(part === "alone" ? [] : [lanes]), ...(part === "lanes" || solos[0].length === 0 ? [] : [solos])];
  }
  if (part === "alone") return [];
  return [targetsFor(args).map((target) => [{ lane: { name: `${target}-1`, target, files: [], estimate: 0 }, args }])];
}

/**
 * Chromium, one build of the dashboard for every stack, then the lanes side by side: each
 * starts a service and the built dashboard on fresh data, runs Playwright over its files and
 * stops them. On the bundled service every spec runs; on the contrarian, the journeys. The
 * counts are summed over the lanes, and the tests' times kept for the run's summary.
 * `onLastLane` is called once the first round is down to its last lane (not when it has only one).
 * `quietAfter` is other work of the run (the Postgres pass): the tests of the specs that run
 * alone, but for the demo's (DEMO_HISTORY_MARKER), start only once it has settled, on a machine
 * left to them; their Playwright and the personas' sign-ins start before (scripts/lib/quiet-gate.ts).
 */
export async function runE2E(args: string[], part: SuitePart = "all", options: { aloneFollows?: boolean; onLastLane?: () => void; quietAfter?: Promise<unknown> } = {}): Promise<E2EResult> {
  const chromium = await ensureTestChromium();
  const rounds = plan(args, part);
  // The stacks of the specs that run alone, started while the lanes before them finish (see startEarly).
  const later = part === "lanes" && options.aloneFollows ? plan(args, "alone") : [];
  return withRunLock("browser-test run", async () => {
    if (part !== "alone") rmSync(LOG_ROOT, { recursive: true, force: true });
    // Once, before any lane picks its ports (see buildTestDashboard).
    await buildTestDashboard();
    console.log(`Test budgets × ${timeScale()} (E2E_TIME_SCALE, scripts/lib/time-scale.ts).`);
    const total: Counts = { passed: 0, failed: 0 };
    const tests: BrowserTest[] = [];
    // Each round's chains side by side, a chain's lanes one after another; the rounds one after another.
    for (const chains of rounds) {
      if (chains.flat().length > 1) {
        console.log(`${chains.length === 1 ? "Lanes one after another" : `${chains.length} lanes side by side`} (estimated from earlier runs):`);
        for (const chain of chains) console.log(`  ${chain.map(({ lane }) => `${lane.name}: ${lane.files.length} files, ~${lane.estimate}s`).join(", then ")}`);
      }
      // The specs that measure latency, but for the demo's, begin once `quietAfter` has settled.
      const gateOf = (lane: Lane) => (part === "alone" && !lane.demoHistory ? options.quietAfter : undefined);
      const runOne = ({ lane, args: laneArgs }: LaneRun) =>
        runLane(chromium, lane, laneArgs, gateOf(lane)).catch((error: Error): E2EResult => {
          // A lane whose stack did not start: its files did not run, which fails the run.
          console.error(`[${lane.name}] could not run: ${error.message}`);
          return { counts: { passed: 0, failed: 1 }, tests: [] };
        });
      const next = rounds[rounds.indexOf(chains) + 1] ?? later[0] ?? [];
      const results = await runChains(chains, runOne, {
        whenOneLeft: () => {
          startEarly(next.flat().map(({ lane }) => lane));
          if (chains === rounds[0]) options.onLastLane?.();
        },
      });
      for (const r of results) {
        total.passed += r.counts.passed;
        total.failed += r.counts.failed;
        tests.push(...r.tests);
      }
    }
    if (args.length === 0 && !process.env.E2E_TARGET) saveDurations(tests);
    return { counts: total, tests };
  });
}

/** Each file's time in this run (test-results/e2e-durations.json), for the next run's plan. */
function saveDurations(tests: BrowserTest[]) {
  // The lanes and the specs that run alone may be saved by two calls (npm test): merge.
  const durations = E2E_TIMES.lastRun() as Record<string, number>;
  const fresh = new Set<string>();
  for (const t of tests) {
    if (t.project === "setup") continue;
    const key = unitKey({ file: t.file, target: t.lane.split("-")[0] as ServiceTarget });
    if (!fresh.has(key)) durations[key] = 0;
    fresh.add(key);
    durations[key] = Math.round((durations[key] + t.seconds) * 10) / 10;
  }
  E2E_TIMES.saveLastRun(durations);
}

/**
 * Stacks started ahead for lanes of the next round, by lane name. When a round is down to its
 * last lane, that lane leaves most of a core idle (one lane kept two cores 65-70 % busy), and
 * the next round's stacks start there, not after it: a stack's start (the service seeded, the
 * dashboard migrated, its first admin made) took about 20 s. Their tests still start only when
 * the round has ended, so the specs that run alone still have the machine to themselves.
 */
const startedEarly = new Map<string, Promise<Stack>>();

function startEarly(lanes: Lane[]): void {
  for (const lane of lanes) {
    if (startedEarly.has(lane.name)) continue;
    const stack = startLaneStack(lane);
    // A start that fails is reported by the lane that takes it (runLane awaits it).
    stack.catch(() => {});
    startedEarly.set(lane.name, stack);
  }
}

/** A lane's server output (service.log, dashboard.log, playwright.log). */
const laneLogDir = (lane: Lane) => `${LOG_ROOT}/${lane.name}`;

function startLaneStack(lane: Lane): Promise<Stack> {
  return startStack({ logDir: laneLogDir(lane), target: lane.target, keepData: process.env.E2E_KEEP_DATA === "1", fastAlerts: checksAlertsFast(lane), demoHistory: lane.demoHistory });
}

/**
 * One lane: its stack (started ahead, or now), Playwright over its files, the stack stopped.
 * With `quietAfter`, Playwright starts at once but the lane's tests wait for it to settle
 * (scripts/lib/quiet-gate.ts).
 */
async function runLane(chromium: string, lane: Lane, args: string[], quietAfter?: Promise<unknown>): Promise<E2EResult> {
  const logDir = laneLogDir(lane);
  const report = e2eReport(lane.name);
  rmSync(report, { force: true });
  const started = Date.now();
  const early = startedEarly.get(lane.name);
  startedEarly.delete(lane.name);
  const stack = await (early ?? startLaneStack(lane));
  console.log(`[${lane.name}] ${lane.target} service at ${stack.serviceURL}, dashboard at ${stack.baseURL} (ready in ${Math.round((Date.now() - started) / 1000)}s).`);
  // The other specs were written for the bundled service (its seed, its sandbox addresses);
  // the journeys are written for any service, through their target descriptor.
  const projectArgs = lane.target === "bundled" ? [] : [`--project=${JOURNEYS_PROJECT}`];
  // The demo's spec signs in as its stack's admin: the personas' sign-ins (the setup project) are not needed.
  const setupArgs = lane.demoHistory ? ["--no-deps"] : [];
  const gate = quietAfter ? `${logDir}/quiet` : null;
  if (quietAfter && gate) openGateWhen(quietAfter, gate);
  let code: number | null;
  try {
    const playwright = startChild({
      name: lane.name,
      command: process.execPath,
      args: [BIN.playwright, "test", ...projectArgs, ...setupArgs, ...args],
      cwd: ROOT,
      echo: "prefix",
      logFile: `${logDir}/playwright.log`,
      env: {
        ...process.env,
        CHROMIUM_PATH: chromium,
        E2E_TARGET: lane.target,
        E2E_LANE: lane.name,
        E2E_TRACE: traceFor(lane),
        E2E_REPORT_FILE: report,
        E2E_OUTPUT_DIR: fromRoot("test-results", "playwright", lane.name),
        E2E_AUTH_DIR: fromRoot("e2e", ".auth", lane.name),
        E2E_BASE_URL: stack.baseURL,
        E2E_SERVICE_URL: stack.serviceURL,
        E2E_SERVICE_ENV_FILE: stack.serviceEnvFile,
        ...(stack.smtpPort ? { E2E_SMTP_PORT: String(stack.smtpPort) } : {}),
        E2E_PROJECTS: stack.projects.join(","),
        E2E_ADMIN_EMAIL: stack.admin.email,
        E2E_ADMIN_PASSWORD: stack.admin.password,
        ...(lane.demoHistory ? { E2E_DEMO_HISTORY: "1" } : {}),
        ...(gate ? { E2E_QUIET_GATE: gate } : {}),
        REAUTH_MAX_AGE_S: TEST_REAUTH_MAX_AGE_S,
      },
    });
    code = await playwright.exited;
  } finally {
    await stack.stop();
  }
  const parsed = readReport(report);
  const counts = countsOf(parsed) ?? { passed: 0, failed: 0 };
  // A run that failed outside any test (config error, crash) still counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`[${lane.name}] ${counts.passed} passed, ${counts.failed} failed in ${Math.round((Date.now() - started) / 1000)}s`);
  if (counts.failed > 0) console.log(`[${lane.name}] server output of this lane: ${logDir}/{service,dashboard}.log`);
  return { counts, tests: testsOf(parsed, lane.name) };
}
