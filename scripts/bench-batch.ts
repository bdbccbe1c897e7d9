/**
 * `npm run bench:batch [-- --rows N] [--pairs P] [--postgres <url>]`: an N-row batch job (default 10,000)
 * through the dashboard (its route, its job runner, its database) against the same N/100
 * batches of 100 sent straight to the local service, each on a fresh stack (service +
 * dashboard on PGlite, or with `--postgres` on a new database of that server per stack,
 * dropped afterwards);
 * prints both times and the ratio (target: ≤ 1.15x; with `--pairs P`, P pairs of runs one after
 * the other and their median ratio, the figure judged: on a 2-core machine one pair's ratio
 * moves by ±0.06 from run to run), and the dashboard's peak resident
 * memory (all processes of its group, sampled every 200 ms for the stack's whole life;
 * target: ≤ 400 MB). Then the same with the service failing every 10th batch request
 * (SERVICE_FAULT_BATCH_EVERY=10) and the number of duplicate messages the service ended up
 * holding (must be 0).
 *
 * `--profile <dir>` writes CPU profiles (node --cpu-prof) of each stack's service and
 * dashboard into <dir>/<service|dashboard>-<run>/ when they stop: where the time goes.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startChild, type Child, type Env } from "./lib/child";
import { readEnvFile } from "./lib/env-file";
import { waitForHealth } from "./lib/health";
import { BIN, ROOT, fromRoot, nextServerArgs } from "./lib/paths";
import { waitForIdle } from "./lib/idle";
import { freePort } from "./lib/ports";
import { buildTestDashboard, cleanEnv, freshDashboard } from "./lib/stack";
import { groupCpuMs } from "./lib/proc-cpu";
import { sampleRss } from "./lib/rss";
import { scratchPostgresDatabase } from "./lib/scratch-postgres";
import { sessionCookie } from "./lib/sign-in";

function rowsArgument(): number {
  const i = process.argv.indexOf("--rows");
  const raw = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith("--rows="))?.slice(7);
  if (raw === undefined) return 10_000;
  const n = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(n) || n < 100 || n % 100 !== 0) {
    console.error(`--rows: ${raw} is not a whole number of hundreds (100, 10000, 100000...)`);
    process.exit(2);
  }
  return n;
}

const ROWS = rowsArgument();
const PAIRS = (() => {
  const i = process.argv.indexOf("--pairs");
  const n = i >= 0 ? Number(process.argv[i + 1]) : 1;
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--pairs: ${process.argv[i + 1]} is not a whole number of pairs (1, 3, 5...)`);
    process.exit(2);
  }
  return n;
})();
const POSTGRES = (() => {
  const i = process.argv.indexOf("--postgres");
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

/** The dashboard's database for one stack: a folder for PGlite, or a new database on the Postgres server. */
async function dashboardDatabase(tmp: string, label: string): Promise<{ env: Env; drop: () => Promise<void> }> {
  if (!POSTGRES) return { env: { DASHBOARD_DATA_DIR: path.join(tmp, `dashboard-${label}`) }, drop: async () => {} };
  const database = await scratchPostgresDatabase(POSTGRES, `bench_batch_${label.replace(/\W/g, "_")}`);
  return { env: { DATABASE_URL: database.url }, drop: () => database.close() };
}
const PROFILE = (() => {
  const i = process.argv.indexOf("--profile");
  return i >= 0 ? path.resolve(process.argv[i + 1]!) : undefined;
})();
const profileArgs = (what: string) => (PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.join(PROFILE, what)}`] : []);
const CHUNK = 100;
const WORKERS = 8;
const TARGET_RATIO = 1.15;
const TARGET_RSS_MB = 400;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
/**
 * The local service steps each accepted message through its sandbox lifecycle (sending,
 * sent, delivered...) in the background. Those steps are the service's own simulation, not
 * part of sending, and on a 2-core machine the 20,000 messages of one run would keep it busy
 * for minutes into the next; here they are set an hour apart so the runs measure sending.
 */
const LIFECYCLE_STEP_MS = 3_600_000;
const LOG_DIR = fromRoot("test-results", "bench-logs");

type Stack = { serviceURL: string; key: string; project: string; baseURL: string; admin: { email: string; password: string }; serviceDir: string; rss: ReturnType<typeof sampleRss>; cpuMs: () => { service: number | null; dashboard: number | null; bench: number }; stop: () => Promise<void> };

async function startStack(faultEvery: number, tmp: string, label: string): Promise<Stack> {
  const children: Child[] = [];
  let rss: ReturnType<typeof sampleRss> | null = null;
  const database = await dashboardDatabase(tmp, label);
  const stop = async () => {
    rss?.stop();
    for (const c of children.reverse()) await c.stop();
    await database.drop();
  };
  const servicePort = await freePort();
  const serviceDir = path.join(tmp, `service-${label}`);
  const envFile = path.join(tmp, `service-${label}.env`);
  const service = startChild({
    name: "service",
    command: process.execPath,
    // Profiled, it runs in this node with tsx's loader (the tsx command would profile only its own wrapper).
    args: PROFILE ? [...profileArgs(`service-${label}`), "--import", "tsx", "service/server.ts"] : [BIN.tsx, "service/server.ts"],
    logFile: path.join(LOG_DIR, `batch-service-${label}.log`),
    env: { ...cleanEnv(), SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(servicePort), SERVICE_DATA_DIR: serviceDir, SERVICE_ENV_FILE: envFile, SERVICE_SANDBOX_STEP_MS: String(LIFECYCLE_STEP_MS), SERVICE_RATE_LIMIT: "1000000", SERVICE_FAULT_BATCH_EVERY: String(faultEvery), SERVICE_SEED_HISTORY: "off",
      // The dashboard's event stream is a webhook to this machine, which the service refuses by
      // default: without it the dashboard ran in polling mode, reading messages back at its
      // re-read rate while the batches went out, which a deployment with its stream does not do.
      SERVICE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" },
  });
  children.push(service);
  const [, serviceURL] = await service.waitForLine(/listening on (http:\/\/\S+)/, 90_000);
  const written = readEnvFile(envFile);
  const project = (written.SERVICE_PROJECTS ?? "").split(",")[0];
  const port = await freePort();
  const { baseURL, admin, env } = freshDashboard({
    port,
    adminEmail: "bench@bench.test",
    service: { SERVICE_URL: written.SERVICE_URL, SERVICE_API_KEY: written.SERVICE_API_KEY, SERVICE_PROJECTS: written.SERVICE_PROJECTS },
    database: database.env,
    settings: { BATCH_WORKERS: String(WORKERS) },
  });
  const dashboard = startChild({ name: "dashboard", command: process.execPath, args: [...profileArgs(`dashboard-${label}`), ...nextServerArgs(port)], cwd: ROOT, logFile: path.join(LOG_DIR, `batch-dashboard-${label}.log`), env });
  children.push(dashboard);
  rss = sampleRss(dashboard.process.pid!);
  await waitForHealth(`${baseURL}/api/health`, dashboard, 120_000);
  const cpuMs = () => {
    const own = process.cpuUsage();
    return { service: groupCpuMs(service.process.pid), dashboard: groupCpuMs(dashboard.process.pid), bench: (own.user + own.system) / 1000 };
  };
  return { serviceURL, key: written.SERVICE_API_KEY!, project, baseURL, admin, serviceDir, rss, cpuMs, stop };
}

const content = (domain: string) => ({ from: { email: `bench@${domain}` }, subject: "Benchmark", text: "Hello from the benchmark." });

/** The same 100 batches straight to the service, WORKERS at a time, retried with their key on 5xx as any careful client would. */
async function direct(stack: Stack, domain: string, prefix: string, rows = ROWS): Promise<number> {
  const headers = { Authorization: `Bearer ${stack.key}`, "X-Service-Product": stack.project, "Content-Type": "application/json" };
  const run = `${Date.now()}`;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      for (let i = next++; i < rows / CHUNK; i = next++) {
        const emails = Array.from({ length: CHUNK }, (_, j) => ({ ...content(domain), to: [{ email: `${prefix}-${i * CHUNK + j}@bench.example.com` }] }));
        for (let attempt = 0; ; attempt++) {
          const r = await fetch(`${stack.serviceURL}/v1/emails/batch`, { method: "POST", headers: { ...headers, "Idempotency-Key": `direct-${run}-${i}` }, body: JSON.stringify({ emails }) });
          await r.arrayBuffer();
          if (r.status === 207) break;
          if (r.status < 500 || attempt > 5) throw new Error(`direct batch ${i}: HTTP ${r.status}`);
          await new Promise((res) => setTimeout(res, 1000));
        }
      }
    }),
  );
  return performance.now() - started;
}

/**
 * The job through the dashboard: created by its route, run by its runner. Its time ends when
 * the dashboard marked the job done (`finishedAt`, same machine, same clock), so the status is
 * polled at the job screen's own pace (about once a second) without adding load to the run
 * or rounding its time up to the next poll.
 */
async function throughDashboard(stack: Stack, cookie: string, domain: string, prefix: string, rows = ROWS): Promise<{ ms: number; createMs: number; sent: number }> {
  const csv = ["email,name", ...Array.from({ length: rows }, (_, i) => `${prefix}-${i}@bench.example.com,Row ${i}`)].join("\n");
  const headers = { Cookie: cookie, Origin: stack.baseURL, "Content-Type": "application/json" };
  const startedAt = Date.now();
  const started = performance.now();
  const created = await fetch(`${stack.baseURL}/api/p/${stack.project}/batches`, {
    method: "POST",
    headers,
    body: JSON.stringify({ csv, fileName: "bench.csv", mapping: { email: "email", name: "name", variables: {} }, content: content(domain), confirmCount: rows }),
  });
  if (created.status !== 201) throw new Error(`POST batches: HTTP ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const createMs = performance.now() - started;
  for (;;) {
    await new Promise((res) => setTimeout(res, 1000));
    const r = await fetch(`${stack.baseURL}/api/p/${stack.project}/batches/${id}`, { headers: { Cookie: cookie } });
    const job = (await r.json()) as { status: string; finishedAt: string | null; counts: { sent: number } };
    if (job.status === "done") return { ms: Date.parse(job.finishedAt!) - startedAt, createMs, sent: job.counts.sent };
  }
}

/** Messages the service holds per recipient of a prefix, read from its database after it stopped. */
async function duplicates(serviceDir: string, prefix: string): Promise<{ messages: number; recipients: number }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(serviceDir);
  try {
    const { rows } = await db.query<{ n: number; d: number }>(
      `select count(*)::int as n, count(distinct to_addresses->0->>'email')::int as d from messages where to_addresses->0->>'email' like $1`,
      [`${prefix}-%`],
    );
    return { messages: rows[0].n, recipients: rows[0].d };
  } finally {
    await db.close();
  }
}

async function domainOf(stack: Stack): Promise<string> {
  const r = await fetch(`${stack.serviceURL}/v1/domains?status=verified`, { headers: { Authorization: `Bearer ${stack.key}`, "X-Service-Product": stack.project } });
  return ((await r.json()) as { data: { domain: string }[] }).data[0].domain;
}

mkdirSync(LOG_DIR, { recursive: true });
await buildTestDashboard();
const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-batch-"));
const loads = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

/** CPU the run took per process, in cores (CPU seconds per second of the run); null where /proc cannot tell. */
type CpuSplit = { service: number | null; dashboard: number | null; bench: number };
const cores = (before: number | null, after: number | null, ms: number) => (before === null || after === null ? null : (after - before) / ms);
const formatSplit = (c: CpuSplit) => `service ${c.service?.toFixed(2) ?? "?"}, dashboard ${c.dashboard?.toFixed(2) ?? "?"}, this script ${c.bench.toFixed(2)} cores`;

/**
 * One timed run on a stack of its own. Each accepted message keeps the service (its lifecycle
 * steps, its webhook deliveries) and the dashboard (their ingest) busy for a while after the
 * send; at 100,000 messages that is many minutes, so a second run on the same stack would pay
 * for the first. Both stacks get the same small warm-up (JIT, database pages) through both
 * paths, then wait for the machine to be quiet.
 */
async function timedRun<T>(label: string, run: (stack: Stack, cookie: string, domain: string) => Promise<T>): Promise<{ value: T; quietMs: number; load: string; cpu: CpuSplit; rss: { atRest: number; run: number; life: number } }> {
  const stack = await startStack(0, tmp, label);
  try {
    const cookie = await sessionCookie(stack.baseURL, stack.admin);
    const domain = await domainOf(stack);
    await direct(stack, domain, `warm-${label}`, 10 * CHUNK);
    await throughDashboard(stack, cookie, domain, `warm-b-${label}`, 10 * CHUNK);
    const quietMs = await waitForIdle();
    const load = loads();
    const atRest = stack.rss.mark();
    const before = stack.cpuMs();
    const started = performance.now();
    const value = await run(stack, cookie, domain);
    const ms = performance.now() - started;
    const after = stack.cpuMs();
    const cpu = { service: cores(before.service, after.service, ms), dashboard: cores(before.dashboard, after.dashboard, ms), bench: (after.bench - before.bench) / ms };
    return { value, quietMs, load, cpu, rss: { atRest, run: stack.rss.windowPeak(), life: stack.rss.peak() } };
  } finally {
    await stack.stop();
  }
}

try {
  // 1. No faults: time and ratio, each path on its own fresh stack, pair after pair.
  const pairs: { directMs: number; dash: { ms: number; createMs: number; sent: number }; ratio: number; rss: { atRest: number; run: number; life: number }; directAtRest: number; cpu: { direct: CpuSplit; dashboard: CpuSplit } }[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    const suffix = pair === 1 ? "" : `-${pair}`;
    const straight = await timedRun(`direct${suffix}`, (stack, _cookie, domain) => direct(stack, domain, "d"));
    const through = await timedRun(`dashboard${suffix}`, (stack, cookie, domain) => throughDashboard(stack, cookie, domain, "b"));
    console.log(`\n(waited ${(straight.quietMs / 1000).toFixed(1)} s and ${(through.quietMs / 1000).toFixed(1)} s for the machine to be quiet; load average at the starts ${straight.load} and ${through.load}, now ${loads()})`);
    // A pair of 100,000-row runs takes a quarter of an hour on 2 cores: each is shown as it ends.
    if (PAIRS > 1) console.log(`pair ${pair}: ${(straight.value / 1000).toFixed(2)} s straight, ${(through.value.ms / 1000).toFixed(2)} s through the dashboard, ${(through.value.ms / straight.value).toFixed(2)}x`);
    pairs.push({ directMs: straight.value, dash: through.value, ratio: through.value.ms / straight.value, rss: through.rss, directAtRest: straight.rss.atRest, cpu: { direct: straight.cpu, dashboard: through.cpu } });
  }
  console.log(`\nDashboard database: ${POSTGRES ? "Postgres" : "PGlite"}.`);
  console.log(`\n${ROWS.toLocaleString("en")} messages in ${(ROWS / CHUNK).toLocaleString("en")} batches, ${WORKERS} at a time${PAIRS > 1 ? `, ${PAIRS} pairs of runs` : ""}:`);
  for (const [i, p] of pairs.entries()) {
    if (PAIRS > 1) console.log(`  pair ${i + 1}:`);
    console.log(`  straight to the service: ${(p.directMs / 1000).toFixed(2)} s`);
    console.log(`  through the dashboard:   ${(p.dash.ms / 1000).toFixed(2)} s (job created from a CSV, checked, stored, sent, ${p.dash.sent} sent; of which creating the job: ${(p.dash.createMs / 1000).toFixed(2)} s)`);
    if (PAIRS > 1) console.log(`  ratio: ${p.ratio.toFixed(2)}x`);
    // Both servers share the machine's cores: what the dashboard's own work takes, the service may wait for.
    console.log(`  CPU during the runs (${os.cpus().length} cores): straight: ${formatSplit(p.cpu.direct)}; through the dashboard: ${formatSplit(p.cpu.dashboard)}`);
  }
  const sorted = pairs.map((p) => p.ratio).sort((a, b) => a - b);
  const ratio = sorted[Math.floor((sorted.length - 1) / 2)]! / 2 + sorted[Math.ceil((sorted.length - 1) / 2)]! / 2;
  console.log(`  ratio${PAIRS > 1 ? `, the median of ${PAIRS} pairs` : ""}: ${ratio.toFixed(2)}x (target ≤ ${TARGET_RATIO}x) ${ratio <= TARGET_RATIO ? "OK" : "OVER TARGET"}`);
  const limit = TARGET_RSS_MB * 1024 * 1024;
  const peakRun = Math.max(...pairs.map((p) => p.rss.run));
  const peakLife = Math.max(...pairs.map((p) => p.rss.life));
  console.log(`  dashboard resident memory: peak ${mb(peakRun)} MB during the run${PAIRS > 1 ? "s" : ""}, ${mb(peakLife)} MB over the stack's whole life (target ≤ ${TARGET_RSS_MB} MB) ${peakLife <= limit ? "OK" : "OVER TARGET"}`);
  // What the dashboard holds before the job (started, signed in, warmed up, idle): the run adds to this.
  console.log(`    at rest before the run: ${mb(pairs[0]!.rss.atRest)} MB (the same stack in the direct run: ${mb(pairs[0]!.directAtRest)} MB)`);
  if (ratio > TARGET_RATIO || peakLife > limit) process.exitCode = 1;

  // 2. The service fails every 10th batch request before doing anything.
  const stack = await startStack(10, tmp, "faults");
  let sent = 0;
  try {
    const cookie = await sessionCookie(stack.baseURL, stack.admin);
    const domain = await domainOf(stack);
    const faulty = await throughDashboard(stack, cookie, domain, "fb");
    sent = faulty.sent;
    console.log(`\nWith SERVICE_FAULT_BATCH_EVERY=10: ${faulty.sent} sent through the dashboard in ${(faulty.ms / 1000).toFixed(2)} s (dashboard peak ${mb(stack.rss.peak())} MB)`);
  } finally {
    await stack.stop();
  }
  const held = await duplicates(stack.serviceDir, "fb");
  console.log(`  the service holds ${held.messages} messages for ${held.recipients} recipients: ${held.messages - held.recipients} duplicate messages (must be 0)`);
  if (held.messages - held.recipients !== 0 || sent !== ROWS) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
