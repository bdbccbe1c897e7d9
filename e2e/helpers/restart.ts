import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startChild, type Child } from "../../scripts/lib/child";
import { BIN, ROOT, nextServerArgs } from "../../scripts/lib/paths";
import { freePort } from "../../scripts/lib/ports";
import { TEST_DIST_DIR } from "../../scripts/lib/stack";
import { run, serviceKey } from "../support/run";

/**
 * A dashboard of the test's own that it can stop and start again on the same data: the
 * harness's dashboard cannot be restarted from inside a test. Same build (.next-e2e), same
 * service; its own database folder and port. `extraEnv` sets test aids (BATCH_*). `host`: the
 * name its PUBLIC_URL and the browser use (it listens on 127.0.0.1 either way) — `localhost`
 * for passkeys, since WebAuthn takes a domain as the relying party, never an IP address.
 */
export async function ownDashboard(extraEnv: Record<string, string> = {}, { host = "127.0.0.1" }: { host?: "127.0.0.1" | "localhost" } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "mail-dashboard-restart-"));
  const port = await freePort();
  const baseURL = `http://${host}:${port}`;
  const admin = { email: "restart-admin@e2e.test", password: `pw-${randomBytes(9).toString("base64url")}` };
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    __NEXT_PROCESSED_ENV: "true",
    NEXT_DIST_DIR: TEST_DIST_DIR,
    SERVICE_URL: run.serviceURL,
    SERVICE_API_KEY: serviceKey(),
    SERVICE_PROJECTS: run.projects.join(","),
    DASHBOARD_DATA_DIR: path.join(dataDir, "db"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PUBLIC_URL: baseURL,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...extraEnv,
  };
  let child: Child | null = null;
  let starts = 0;
  const logDir = path.join(ROOT, "test-results", "restart-logs", process.env.E2E_LANE ?? "");
  async function start() {
    starts++;
    mkdirSync(logDir, { recursive: true });
    child = startChild({
      name: `dashboard-${starts}`,
      command: process.execPath,
      args: nextServerArgs(port),
      cwd: ROOT,
      env,
      logFile: path.join(logDir, `dashboard-${starts}.log`),
    });
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      try {
        const r = await fetch(`${baseURL}/api/health`);
        if (r.status < 500) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`the restarted dashboard did not answer:\n${child.tail()}`);
  }
  /** Ends the process group at once (SIGKILL), as a crash or a pulled plug would. */
  async function kill() {
    const c = child as Child | null;
    if (!c) return;
    try {
      if (c.process.pid) process.kill(-c.process.pid, "SIGKILL");
    } catch {
      // ESRCH: it had ended already (a test may have made it crash).
    }
    await c.exited;
    child = null;
  }
  return {
    baseURL,
    admin,
    /** The running process, for a test that checks it survives what it does (null when stopped). */
    current: (): Child | null => child,
    start,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    dispose: async () => {
      await kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
