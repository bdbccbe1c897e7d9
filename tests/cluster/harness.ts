import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";
import { TEST_CHROMIUM_ARGS, ensureTestChromium } from "../../scripts/lib/chromium";
import { startChild, type Child, type Env } from "../../scripts/lib/child";
import { readEnvFile } from "../../scripts/lib/env-file";
import { waitForHealth } from "../../scripts/lib/health";
import { BIN, ROOT, fromRoot, nextServerArgs } from "../../scripts/lib/paths";
import { freePort } from "../../scripts/lib/ports";
import { withRunLock } from "../../scripts/lib/run-lock";
import { dropDatabase } from "../../contract/db/drop-database";
import { buildTestDashboard, TEST_DIST_DIR } from "../../scripts/lib/stack";
import { startBalancer, type Balancer } from "./balancer";

/**
 * Several dashboards on one Postgres, as a real deployment runs them: the bundled service (on
 * a Postgres database of its own, so the test can count what it holds), a load balancer, and
 * built dashboards started from the same build (TEST_DIST_DIR, shared with the browser tests) on
 * one dashboard database that is empty when they start. Needs TEST_DATABASE_URL, a role
 * allowed to create databases; each run makes its own databases and drops them.
 */
export const SERVER_URL = process.env.TEST_DATABASE_URL;

const LOG_DIR = fromRoot("test-results", "cluster-logs");
// Nothing of the developer's shell or .env.local may reach the servers.
const OWN = /^(SERVICE_|DATABASE_URL$|TEST_DATABASE_URL$|DASHBOARD_|AUTH_|PUBLIC_URL$|ADMIN_|OIDC_|NEXT_DIST_DIR$|PORT$|HOSTNAME$|BATCH_|INDEX_RETENTION|RETENTION_)/;
const cleanEnv = (): Env => ({ ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !OWN.test(k))), NEXT_TELEMETRY_DISABLED: "1" });

export type Instance = { name: string; url: string; child: Child };

export type Cluster = {
  service: { url: string; key: string; projects: string[]; db: postgres.Sql };
  /** The dashboards' shared database. */
  db: postgres.Sql;
  databaseUrl: string;
  balancer: Balancer;
  a: Instance;
  b: Instance;
  admin: { email: string; password: string };
  /** The environment every instance shares (the settings that must be equal). */
  sharedEnv: Env;
  startInstance(name: string, extra?: Env): Promise<Instance>;
  /** Kills an instance's whole process group at once, as a crash would. */
  kill(instance: Instance): Promise<void>;
  signIn(): Promise<string>;
  stop(): Promise<void>;
};

async function createDatabase(admin: postgres.Sql, prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** Holds the checkout's run lock (the .next-e2e build is shared with the browser tests) until released. */
function holdRunLock(): Promise<() => void> {
  return new Promise((acquired) => {
    void withRunLock("multi-instance test", () => new Promise<void>((release) => acquired(release)));
  });
}

export async function startCluster(opts: { dashboardEnv?: Env; sandboxStepMs?: number } = {}): Promise<Cluster> {
  const { default: postgresClient } = await import("postgres");
  const releaseLock = await holdRunLock();
  const admin = postgresClient(SERVER_URL!, { max: 1, onnotice: () => {} });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "mail-dashboard-cluster-"));
  mkdirSync(LOG_DIR, { recursive: true });
  const children: Child[] = [];
  const dropped: string[] = [];
  const clients: postgres.Sql[] = [];
  let balancer: Balancer | null = null;
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop(5_000)));
    await balancer?.close();
    await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    for (const name of dropped) await dropDatabase(admin, name).catch(() => {});
    await admin.end({ timeout: 5 });
    rmSync(tmp, { recursive: true, force: true });
    releaseLock();
  };
  try {
    // Before any port is picked (see buildTestDashboard).
    await buildTestDashboard();
    const dashDb = await createDatabase(admin, "dash_cluster");
    const svcDb = await createDatabase(admin, "svc_cluster");
    dropped.push(dashDb.name, svcDb.name);

    const servicePort = await freePort();
    const envFile = path.join(tmp, "service.env");
    const service = startChild({
      name: "service",
      command: process.execPath,
      args: [BIN.tsx, "service/server.ts"],
      logFile: path.join(LOG_DIR, "service.log"),
      env: {
        ...cleanEnv(),
        SERVICE_HOST: "127.0.0.1",
        SERVICE_PORT: String(servicePort),
        SERVICE_DATABASE_URL: svcDb.url,
        SERVICE_ENV_FILE: envFile,
        SERVICE_SANDBOX_STEP_MS: String(opts.sandboxStepMs ?? 1500),
        SERVICE_WEBHOOK_RETRY_SCHEDULE: "200,400,800,1600,3200",
        SERVICE_RATE_LIMIT: "100000",
        // No 30-day demo history handed to the dashboards' streams: the test counts what they index.
        SERVICE_SEED_HISTORY: "off",
        // Webhooks to this machine are refused by default; the balancer, which the streams point at, listens on 127.0.0.1.
        SERVICE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
      },
    });
    children.push(service);
    const [, serviceUrl] = await service.waitForLine(/listening on (http:\/\/\S+)/, 120_000);
    const written = readEnvFile(envFile);
    const projects = (written.SERVICE_PROJECTS ?? "").split(",").filter(Boolean);

    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    balancer = await startBalancer(urls);
    const adminUser = { email: "admin@cluster.test", password: `pw-${randomBytes(12).toString("base64url")}` };
    const sharedEnv: Env = {
      ...cleanEnv(),
      __NEXT_PROCESSED_ENV: "true",
      NEXT_DIST_DIR: TEST_DIST_DIR,
      SERVICE_URL: written.SERVICE_URL,
      SERVICE_API_KEY: written.SERVICE_API_KEY,
      SERVICE_PROJECTS: projects.join(","),
      DATABASE_URL: dashDb.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      PUBLIC_URL: balancer.url,
      ADMIN_EMAIL: adminUser.email,
      ADMIN_PASSWORD: adminUser.password,
      ...opts.dashboardEnv,
    };
    const launch = (name: string, port: number, extra: Env = {}): Instance => {
      const child = startChild({
        name,
        command: process.execPath,
        args: nextServerArgs(port),
        cwd: ROOT,
        logFile: path.join(LOG_DIR, `${name}.log`),
        env: { ...sharedEnv, ...extra },
      });
      children.push(child);
      return { name, url: `http://127.0.0.1:${port}`, child };
    };
    // Both at the same moment, on the empty database.
    const a = launch("dashboard-a", ports[0]);
    const b = launch("dashboard-b", ports[1]);
    await Promise.all([waitForHealth(`${a.url}/api/health`, a.child, 180_000), waitForHealth(`${b.url}/api/health`, b.child, 180_000)]);

    const db = postgresClient(dashDb.url, { max: 2, onnotice: () => {} });
    const serviceDb = postgresClient(svcDb.url, { max: 2, onnotice: () => {} });
    clients.push(db, serviceDb);

    return {
      service: { url: serviceUrl, key: written.SERVICE_API_KEY, projects, db: serviceDb },
      db,
      databaseUrl: dashDb.url,
      balancer,
      a,
      b,
      admin: adminUser,
      sharedEnv,
      async startInstance(name, extra = {}) {
        return launch(name, await freePort(), extra);
      },
      async kill(instance) {
        if (instance.child.process.pid) process.kill(-instance.child.process.pid, "SIGKILL");
        await instance.child.exited;
      },
      async signIn() {
        const { chromium } = await import("@playwright/test");
        const browser = await chromium.launch({ executablePath: await ensureTestChromium(), args: TEST_CHROMIUM_ARGS });
        try {
          const page = await browser.newPage({ baseURL: balancer!.url });
          await page.goto("/login");
          await page.getByLabel("Email").fill(adminUser.email);
          await page.getByLabel("Password").fill(adminUser.password);
          await page.getByRole("button", { name: "Sign in" }).click();
          await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 60_000 });
          return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        } finally {
          await browser.close();
        }
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Polls until `probe` answers something truthy; the test's own waits are on events, never fixed sleeps. */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
