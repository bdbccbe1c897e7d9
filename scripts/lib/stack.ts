import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { copyPgliteTemplate } from "../../contract/db/pglite-template";
import { buildIfStale } from "./build";
import { startChild, stopInStartOrder, type Child, type Env } from "./child";
import { readEnvFile } from "./env-file";
import { BIN, ROOT, nextServerArgs } from "./paths";
import { freePort } from "./ports";
import { waitForHealth } from "./health";

/** The build the harness uses, apart from the developer's `.next`. */
export const TEST_DIST_DIR = ".next-e2e";

/**
 * Password re-confirmation age for creating keys and webhooks, short so a browser test can
 * see it asked without waiting ten minutes; the Playwright process gets the same value.
 */
export const TEST_REAUTH_MAX_AGE_S = "15";

export interface Stack {
  target: ServiceTarget;
  baseURL: string;
  serviceURL: string;
  /** The account-wide key, as the service's env file holds it. */
  serviceKey: string;
  projects: string[];
  serviceEnvFile: string;
  /** The bundled service's inbound SMTP listener (SERVICE_SMTP_INBOUND_PORT); none on the contrarian. */
  smtpPort: number | null;
  admin: { email: string; password: string };
  tmpDir: string;
  /** Each server's process id, which leads its process group (groupCpuMs in ./proc-cpu.ts). */
  pids: { service: number | undefined; dashboard: number | undefined };
  stop(): Promise<void>;
}

/**
 * Which email service the dashboard is pointed at: the bundled one (`service/`, started the
 * way `npm start` does), or the contrarian (`e2e/contrarian-service/`), a second
 * implementation of the interface that chooses differently wherever the interface is silent,
 * connected the way a user connects their provider: SERVICE_URL, SERVICE_API_KEY and
 * SERVICE_PROJECTS in the dashboard's environment.
 */
export type ServiceTarget = "bundled" | "contrarian";
export const SERVICE_TARGETS: readonly ServiceTarget[] = ["bundled", "contrarian"];

export interface StackOptions {
  /** Folder for service.log and dashboard.log. */
  logDir: string;
  /** The email service to start (default: the bundled one). */
  target?: ServiceTarget;
  /** Milliseconds between sandbox lifecycle steps (fast for tests); the contrarian's own pace when not given. */
  sandboxStepMs?: number;
  /** Keep the temporary data folder after stopping (to inspect a failure). */
  keepData?: boolean;
  /**
   * The bundled service's 30-day demo history (SERVICE_SEED_HISTORY). Off unless asked: the
   * specs start from the base demo; e2e/demo.spec.ts asks for it on a stack of its own.
   */
  demoHistory?: boolean;
  /**
   * Runs after the build and before the dashboard starts, with the dashboard's data folder
   * (PGlite allows one process per folder, so a benchmark fills the index here).
   */
  beforeDashboard?: (dashboard: { dataDir: string; projects: string[] }) => Promise<void>;
  /**
   * The dashboard checks alerts every 2 s (a spec that waits for one to be raised: FAST_ALERTS_MARKER
   * in ./e2e-lanes.ts) rather than at its own interval.
   */
  fastAlerts?: boolean;
  /** Extra Node flags for the dashboard's process (a benchmark's `--cpu-prof`). */
  dashboardNodeFlags?: string[];
}

// Variables of a developer's shell or .env.local that must not leak into a run on fresh data
// (the benchmarks set the batch runner's and the event stream's knobs themselves).
const OWN_VARIABLES = /^(SERVICE_|CONTRARIAN_|DATABASE_URL$|TEST_DATABASE_URL$|DASHBOARD_|AUTH_|PUBLIC_URL$|ADMIN_|OIDC_|NEXT_DIST_DIR$|PORT$|HOSTNAME$|BATCH_|REREAD_|RECONCILE_|STREAM_)/;

export function cleanEnv(): Env {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([key]) => !OWN_VARIABLES.test(key)));
  // A test run reports nothing to Next's telemetry (CI has no network beyond the registry).
  return { ...kept, NEXT_TELEMETRY_DISABLED: "1" };
}

/**
 * The test build (TEST_DIST_DIR), made when stale. Call it before picking ports: a port found
 * free and left unused through a build of several minutes can be taken meanwhile (the other
 * test files' Postgres connections draw their local ports from the same range), and the
 * dashboard then fails to listen. The build reads no setting of a run, so one environment
 * fits them all.
 */
export function buildTestDashboard(opts: { prefix?: string } = {}): Promise<void> {
  // Without Next's own type check: the runs that build it (npm test, its parts) check the
  // types with tsc themselves (scripts/lib/typecheck.ts), the built route types included.
  return buildIfStale(TEST_DIST_DIR, { ...cleanEnv(), __NEXT_PROCESSED_ENV: "true", NEXT_DIST_DIR: TEST_DIST_DIR, NEXT_BUILD_SKIP_TYPECHECK: "1" }, opts);
}

/**
 * The built dashboard (TEST_DIST_DIR) on fresh data at 127.0.0.1:`port`: its address, a first
 * admin `adminEmail` with a new password, and its environment — nothing of the developer's
 * shell or .env.local, a new AUTH_SECRET, the given service connection, database
 * (DASHBOARD_DATA_DIR or DATABASE_URL) and further settings.
 */
export function freshDashboard(o: {
  port: number;
  adminEmail: string;
  service: { SERVICE_URL?: string; SERVICE_API_KEY?: string; SERVICE_PROJECTS?: string };
  database: Env;
  settings?: Env;
}): { baseURL: string; admin: { email: string; password: string }; env: Env } {
  const baseURL = `http://127.0.0.1:${o.port}`;
  const admin = { email: o.adminEmail, password: `pw-${randomBytes(12).toString("base64url")}` };
  const env: Env = {
    ...cleanEnv(),
    // Next loads .env.local from the project folder unless told the environment is
    // already loaded; the developer's file must not reach a run on fresh data.
    __NEXT_PROCESSED_ENV: "true",
    NEXT_DIST_DIR: TEST_DIST_DIR,
    ...o.service,
    ...o.database,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PUBLIC_URL: baseURL,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...o.settings,
  };
  return { baseURL, admin, env };
}

/**
 * An email service (the bundled one, or the contrarian) and the built dashboard on fresh
 * temporary data, free ports and an env file of their own: nothing of the developer's
 * `.env.local`, `.data/` or ports is touched.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), "mail-dashboard-run-"));
  mkdirSync(options.logDir, { recursive: true });
  const children: Child[] = [];
  const stop = async () => {
    // A server that ignored SIGTERM cost its grace period: say so, so the next such wait is seen.
    for (const [name, how] of Object.entries(await stopInStartOrder(children))) {
      if (how === "killed") console.warn(`[stack] the ${name} did not end within 10 s of SIGTERM and was killed (its log: ${options.logDir})`);
    }
    if (!options.keepData) rmSync(tmpDir, { recursive: true, force: true });
  };

  try {
    await buildTestDashboard();
    const servicePort = await freePort();
    let dashboardPort = await freePort();
    while (dashboardPort === servicePort) dashboardPort = await freePort();
    let smtpPort: number | null = null;
    if (options.target !== "contrarian") {
      smtpPort = await freePort();
      while (smtpPort === servicePort || smtpPort === dashboardPort) smtpPort = await freePort();
    }
    const serviceEnvFile = path.join(tmpDir, "service.env");
    const logFile = path.join(options.logDir, "service.log");
    const started =
      options.target === "contrarian"
        ? await startContrarian({ port: servicePort, envFile: serviceEnvFile, logFile, stepMs: options.sandboxStepMs })
        : await startBundled({ port: servicePort, envFile: serviceEnvFile, logFile, dataDir: path.join(tmpDir, "service"), stepMs: options.sandboxStepMs, demoHistory: options.demoHistory, smtpPort });
    children.push(started.child);
    const { serviceURL, serviceKey, projects, written } = started;

    const { baseURL, admin, env: dashboardEnv } = freshDashboard({
      port: dashboardPort,
      adminEmail: "admin@e2e.test",
      service: { SERVICE_URL: written.SERVICE_URL, SERVICE_API_KEY: serviceKey, SERVICE_PROJECTS: projects.join(",") },
      database: { DASHBOARD_DATA_DIR: path.join(tmpDir, "dashboard") },
      settings: {
        REAUTH_MAX_AGE_S: TEST_REAUTH_MAX_AGE_S,
        // e2e/alerts.spec.ts: a few dozen sandbox bounces cross the limit within seconds.
        ALERT_MIN_VOLUME: "10",
        ...(options.fastAlerts ? { ALERT_CHECK_INTERVAL_S: "2" } : {}),
      },
    });
    await options.beforeDashboard?.({ dataDir: dashboardEnv.DASHBOARD_DATA_DIR!, projects });

    const dashboard = startChild({
      name: "dashboard",
      command: process.execPath,
      args: [...(options.dashboardNodeFlags ?? []), ...nextServerArgs(dashboardPort)],
      cwd: ROOT,
      logFile: path.join(options.logDir, "dashboard.log"),
      env: dashboardEnv,
    });
    children.push(dashboard);
    await waitForHealth(`${baseURL}/api/health`, dashboard, 120_000);

    const pids = { service: started.child.process.pid, dashboard: dashboard.process.pid };
    return { target: options.target ?? "bundled", baseURL, serviceURL, serviceKey, projects, serviceEnvFile, smtpPort, admin, tmpDir, pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface StartedService {
  child: Child;
  serviceURL: string;
  serviceKey: string;
  projects: string[];
  /** SERVICE_URL, SERVICE_API_KEY, SERVICE_PROJECTS as the env file holds them. */
  written: Record<string, string>;
}

/**
 * Starts a service (`script`, run with tsx) and waits until it says where it listens; `connect`
 * then reads the connection it offers. A service that fails to start or connect is stopped.
 */
async function startService(
  o: { name: string; script: string; logFile: string; env: Env; timeoutMs: number },
  connect: (serviceURL: string, child: Child) => Omit<StartedService, "child" | "serviceURL">,
): Promise<StartedService> {
  const child = startChild({ name: o.name, command: process.execPath, args: [BIN.tsx, o.script], logFile: o.logFile, env: { ...cleanEnv(), ...o.env } });
  try {
    const [, serviceURL] = await child.waitForLine(/listening on (http:\/\/\S+)/, o.timeoutMs);
    return { child, serviceURL, ...connect(serviceURL, child) };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** The bundled service on fresh data; it seeds its demo account and writes the dashboard's connection. */
async function startBundled(o: { port: number; envFile: string; logFile: string; dataDir: string; stepMs?: number; demoHistory?: boolean; smtpPort?: number | null }): Promise<StartedService> {
  // The service's new database starts as a copy of the empty one the build made (as the
  // dashboard's does): PGlite's initdb was a third of a stack's start, about 5 of the
  // service's 15 CPU-s, on every stack of a run.
  await copyPgliteTemplate(o.dataDir, ROOT);
  const env: Env = {
    SERVICE_HOST: "127.0.0.1",
    SERVICE_PORT: String(o.port),
    SERVICE_DATA_DIR: o.dataDir,
    SERVICE_ENV_FILE: o.envFile,
    SERVICE_SANDBOX_STEP_MS: String(o.stepMs ?? 150),
    SERVICE_WEBHOOK_RETRY_SCHEDULE: "200,400,800",
    // Tests and the benchmark send bursts no real client would; the limit is tested in service/.
    SERVICE_RATE_LIMIT: "100000",
    // The 30-day demo history only where a spec asks for it (e2e/demo.spec.ts runs on a stack of its own).
    SERVICE_SEED_HISTORY: o.demoHistory ? "on" : "off",
    // Webhooks to this machine are refused by default; the dashboard's host (127.0.0.1, where the
    // harness's dashboard, the tests' own dashboards and their webhook receivers listen) is allowed.
    SERVICE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
    // Real inbound mail over SMTP (e2e/admin-dmarc.spec.ts sends a DMARC report to it).
    ...(o.smtpPort ? { SERVICE_SMTP_INBOUND_PORT: String(o.smtpPort) } : {}),
  };
  return startService({ name: "service", script: "service/server.ts", logFile: o.logFile, env, timeoutMs: 90_000 }, (_url, child) => {
    const written = readEnvFile(o.envFile);
    const serviceKey = written.SERVICE_API_KEY;
    if (!written.SERVICE_URL || !serviceKey) {
      throw new Error(`The service started but wrote no SERVICE_URL/SERVICE_API_KEY to ${o.envFile}.\n${child.tail()}`);
    }
    const projects = (written.SERVICE_PROJECTS ?? "").split(",").filter(Boolean);
    return { serviceKey, projects, written };
  });
}

/** Project external ids of the contrarian's account: a dot and a tilde, as real ids may have. */
export const CONTRARIAN_PROJECTS = ["orbit.live", "orbit~trial"];

/**
 * The contrarian with an account key of this run; the connection is written to the env file
 * as a user would write it into .env.local for their provider.
 */
function startContrarian(o: { port: number; envFile: string; logFile: string; stepMs?: number }): Promise<StartedService> {
  const serviceKey = `ctr-acct-${randomBytes(18).toString("hex")}`;
  const env: Env = {
    CONTRARIAN_HOST: "127.0.0.1",
    CONTRARIAN_PORT: String(o.port),
    CONTRARIAN_ACCOUNT_KEY: serviceKey,
    CONTRARIAN_PROJECTS: CONTRARIAN_PROJECTS.join(","),
    CONTRARIAN_STEP_MS: String(o.stepMs ?? 800),
    CONTRARIAN_DOMAIN_VERIFY_MS: "3000",
    CONTRARIAN_LOG_REQUESTS: "1",
  };
  return startService({ name: "contrarian", script: "e2e/contrarian-service/server.ts", logFile: o.logFile, env, timeoutMs: 60_000 }, (serviceURL) => {
    const written = { SERVICE_URL: serviceURL, SERVICE_API_KEY: serviceKey, SERVICE_PROJECTS: CONTRARIAN_PROJECTS.join(",") };
    writeFileSync(o.envFile, Object.entries(written).map(([k, v]) => `${k}=${v}\n`).join(""), { mode: 0o600 });
    return { serviceKey, projects: [...CONTRARIAN_PROJECTS], written };
  });
}
