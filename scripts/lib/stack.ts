import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildIfStale } from "./build";
import { startChild, type Child, type Env } from "./child";
import { readEnvFile } from "./env-file";
import { BIN, ROOT } from "./paths";
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
  baseURL: string;
  serviceURL: string;
  /** The account-wide key, as the service wrote it to its env file. */
  serviceKey: string;
  projects: string[];
  serviceEnvFile: string;
  admin: { email: string; password: string };
  tmpDir: string;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Folder for service.log and dashboard.log. */
  logDir: string;
  /** Milliseconds between sandbox lifecycle steps (fast for tests). */
  sandboxStepMs?: number;
  /** Keep the temporary data folder after stopping (to inspect a failure). */
  keepData?: boolean;
}

// Variables of a developer's shell or .env.local that must not leak into a run on fresh data.
const OWN_VARIABLES = /^(SERVICE_|DATABASE_URL$|TEST_DATABASE_URL$|DASHBOARD_|AUTH_|PUBLIC_URL$|ADMIN_|OIDC_|NEXT_DIST_DIR$|PORT$|HOSTNAME$)/;

function cleanEnv(): Env {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([key]) => !OWN_VARIABLES.test(key)));
  // A test run reports nothing to Next's telemetry (CI has no network beyond the registry).
  return { ...kept, NEXT_TELEMETRY_DISABLED: "1" };
}

/**
 * The local service and the built dashboard on fresh temporary data, free ports and an env
 * file of their own: nothing of the developer's `.env.local`, `.data/` or ports is touched.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), "mail-dashboard-run-"));
  mkdirSync(options.logDir, { recursive: true });
  const children: Child[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await child.stop();
    if (!options.keepData) rmSync(tmpDir, { recursive: true, force: true });
  };

  try {
    const servicePort = await freePort();
    let dashboardPort = await freePort();
    while (dashboardPort === servicePort) dashboardPort = await freePort();
    const serviceEnvFile = path.join(tmpDir, "service.env");

    const service = startChild({
      name: "service",
      command: process.execPath,
      args: [BIN.tsx, "service/server.ts"],
      logFile: path.join(options.logDir, "service.log"),
      env: {
        ...cleanEnv(),
        SERVICE_HOST: "127.0.0.1",
        SERVICE_PORT: String(servicePort),
        SERVICE_DATA_DIR: path.join(tmpDir, "service"),
        SERVICE_ENV_FILE: serviceEnvFile,
        SERVICE_SANDBOX_STEP_MS: String(options.sandboxStepMs ?? 150),
        SERVICE_WEBHOOK_RETRY_SCHEDULE: "200,400,800",
        // Tests and the benchmark send bursts no real client would; the limit is tested in service/.
        SERVICE_RATE_LIMIT: "100000",
      },
    });
    children.push(service);
    const [, serviceURL] = await service.waitForLine(/listening on (http:\/\/\S+)/, 90_000);

    const written = readEnvFile(serviceEnvFile);
    const serviceKey = written.SERVICE_API_KEY;
    if (!written.SERVICE_URL || !serviceKey) {
      throw new Error(`The service started but wrote no SERVICE_URL/SERVICE_API_KEY to ${serviceEnvFile}.\n${service.tail()}`);
    }
    const projects = (written.SERVICE_PROJECTS ?? "").split(",").filter(Boolean);

    const baseURL = `http://127.0.0.1:${dashboardPort}`;
    const admin = { email: "admin@e2e.test", password: `pw-${randomBytes(12).toString("base64url")}` };
    const dashboardEnv: Env = {
      ...cleanEnv(),
      // Next loads .env.local from the project folder unless told the environment is
      // already loaded; the developer's file must not reach a run on fresh data.
      __NEXT_PROCESSED_ENV: "true",
      NEXT_DIST_DIR: TEST_DIST_DIR,
      SERVICE_URL: written.SERVICE_URL,
      SERVICE_API_KEY: serviceKey,
      SERVICE_PROJECTS: projects.join(","),
      DASHBOARD_DATA_DIR: path.join(tmpDir, "dashboard"),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      REAUTH_MAX_AGE_S: TEST_REAUTH_MAX_AGE_S,
      ALERT_MIN_VOLUME: "10", ALERT_CHECK_INTERVAL_S: "2", // e2e/alerts.spec.ts: a few dozen sandbox bounces cross the limit within seconds
    };
    await buildIfStale(TEST_DIST_DIR, dashboardEnv);

    const dashboard = startChild({
      name: "dashboard",
      command: process.execPath,
      args: [BIN.next, "start", "-p", String(dashboardPort), "-H", "127.0.0.1"],
      cwd: ROOT,
      logFile: path.join(options.logDir, "dashboard.log"),
      env: dashboardEnv,
    });
    children.push(dashboard);
    await waitForHealth(`${baseURL}/api/health`, dashboard, 120_000);

    return { baseURL, serviceURL, serviceKey, projects, serviceEnvFile, admin, tmpDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
