/**
 * `npm run bench:ingest -- [--postgres <url>] [--rates 250,500,…] [--seconds 10] [--connections 32] [--duplicates 0.05] [--profile <dir>]`:
 * the event stream's ingest at rising rates. Starts the built dashboard (`next start`, PGlite
 * in a temporary folder, or a new database on the Postgres server at <url>, dropped at the
 * end) against a small real service that speaks the interface (lib/test/foreign-service.ts:
 * it hands out the stream's signing secret and answers the re-reads, GET /v1/emails/{id}, at
 * once), signs in, and then, per rate, sends correctly signed deliveries for `--seconds`
 * from `--connections` kept-alive connections: messages that are sent, delivered and (a third)
 * opened, in the bundled service's shape and in a foreign one (svix-* headers), one delivery
 * in twenty sent twice at the same moment. Per rate it prints the events per second the
 * dashboard took, the answer times, and the delay from delivery to searchable, measured on a
 * sample of messages by polling the Messages API (`?q=<recipient>`), from the delivery's 204
 * on (sent only once the event committed), until the message is there with the event's status. The highest rate taken in full with p99 under 2 s is the sustained
 * rate; then one closed-loop run shows the capacity. At the end: the re-read backlog, and
 * the rows counted in the dashboard's database — every duplicate webhook-id must be one row.
 * `--profile <dir>` writes the dashboard's CPU profile there (node --cpu-prof) when it stops.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { rerunUnderReactServer } from "./lib/react-server";

// The foreign service and the database helpers import server modules ("server-only").
rerunUnderReactServer(import.meta.url, "BENCH_INGEST_CHILD");

const { sql } = await import("drizzle-orm");
const { rowsOf } = await import("@/contract/db-rows");
const { FOREIGN_SECRET, startForeignService } = await import("@/lib/test/foreign-service");
const { startChild } = await import("./lib/child");
const { waitForHealth } = await import("./lib/health");
const { waitForIdle } = await import("./lib/idle");
const { BIN, ROOT, fromRoot, nextServerArgs } = await import("./lib/paths");
const { freePort } = await import("./lib/ports");
const { sessionCookie } = await import("./lib/sign-in");
const { scratchPostgresDatabase } = await import("./lib/scratch-postgres");
const { groupCpuMs } = await import("./lib/proc-cpu");
const { buildTestDashboard, freshDashboard } = await import("./lib/stack");
const { percentile, plan, sender, serviceView, signedDelivery } = await import("./lib/ingest-load");
type Delivery = import("./lib/ingest-load").Delivery;
type BenchMessage = import("./lib/ingest-load").BenchMessage;
type Answer = import("./lib/ingest-load").Answer;

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const POSTGRES = option("postgres");
const RATES = (option("rates") ?? (POSTGRES ? "500,1000,2000,3000,4000" : "250,500,1000,1500,2000,3000")).split(",").map(Number);
const SECONDS = Number(option("seconds")) || 10;
const CONNECTIONS = Number(option("connections")) || 32;
const DUPLICATES = option("duplicates") === undefined ? 0.05 : Number(option("duplicates"));
const PROFILE = option("profile");
const TARGET = POSTGRES ? 2_000 : 1_000;
const TARGET_P99_MS = 2_000;
const PROJECT = "bench";
const LOG_DIR = fromRoot("test-results", "bench-logs");
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

mkdirSync(LOG_DIR, { recursive: true });
await buildTestDashboard();
const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-ingest-"));
const run = randomBytes(3).toString("hex");
const foreign = await startForeignService();
let database: { url?: string; dataDir?: string; drop: () => Promise<void> };
if (POSTGRES) {
  const scratch = await scratchPostgresDatabase(POSTGRES, "bench_ingest");
  database = { url: scratch.url, drop: () => scratch.close() };
} else {
  database = { dataDir: path.join(tmp, "dashboard"), drop: async () => {} };
}

const port = await freePort();
const { baseURL, admin, env } = freshDashboard({
  port,
  adminEmail: "bench@bench.test",
  service: { SERVICE_URL: foreign.url, SERVICE_API_KEY: "bench-account-key", SERVICE_PROJECTS: PROJECT },
  database: database.url ? { DATABASE_URL: database.url } : { DASHBOARD_DATA_DIR: database.dataDir },
});
const profileArgs = PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [];
const dashboard = startChild({ name: "dashboard", command: process.execPath, args: [...profileArgs, ...nextServerArgs(port)], cwd: ROOT, logFile: path.join(LOG_DIR, "ingest-dashboard.log"), env });
const post = sender(baseURL, CONNECTIONS);
const ingestPath = `/api/ingest/${PROJECT}`;
/** What the dashboard answered 204 for: each webhook-id once, and the messages they were about. */
const sentKeys = new Set<string>();
const sentMessages = new Set<string>();
let duplicatesSent = 0;

try {
  await waitForHealth(`${baseURL}/api/health`, dashboard, 120_000);
  // The dashboard connects its stream to a service on this machine by itself; wait until a delivery verifies.
  const probe = plan({ run, firstMessage: 0, count: 1, rate: 1, duplicateShare: 0, sampleEvery: 1e9, keyPrefix: "probe" });
  foreign.messages.set(probe.messages[0]!.id, serviceView(probe.messages[0]!));
  for (let tries = 0; ; tries++) {
    const { body, headers } = signedDelivery(probe.deliveries[0]!, FOREIGN_SECRET);
    const answer = await post.post(ingestPath, body, headers);
    if (answer.status === 204) break;
    if (tries > 120) throw new Error(`the stream did not connect: the probe delivery is answered ${answer.status}`);
    await sleep(500);
  }
  sentKeys.add(probe.deliveries[0]!.key);
  sentMessages.add(probe.messages[0]!.id);
  const cookie = await sessionCookie(baseURL, admin);

  console.log(`Dashboard ${baseURL} on ${POSTGRES ? "Postgres" : "PGlite"}; ${CONNECTIONS} connections, ${SECONDS} s per rate, ${Math.round(DUPLICATES * 100)}% of deliveries sent twice at once.`);
  const watcher = searchWatcher(cookie);
  let nextMessage = 1;
  let sustained = 0;
  for (const rate of RATES) {
    await waitForIdle({ maxBusy: 0.3, timeoutMs: 60_000 });
    const step = plan({ run, firstMessage: nextMessage, count: rate * SECONDS, rate, duplicateShare: DUPLICATES, sampleEvery: Math.max(1, Math.round(rate / 2.3 / 4)), keyPrefix: `r${rate}` });
    nextMessage += step.messages.length;
    const r = await openLoop(step.deliveries, step.messages, rate, watcher);
    const ok = r.achieved >= rate * 0.95 && r.errors === 0 && r.searchP99 < TARGET_P99_MS && r.unresolved === 0;
    if (ok) sustained = Math.max(sustained, r.achieved);
    report(`${rate}/s offered`, r, ok);
    if (!ok) break;
  }
  await waitForIdle({ maxBusy: 0.3, timeoutMs: 60_000 });
  const closed = plan({ run, firstMessage: nextMessage, count: Math.max(...RATES) * SECONDS * 2, rate: Math.max(sustained, 500), duplicateShare: DUPLICATES, sampleEvery: 100, keyPrefix: "max" });
  const max = await closedLoop(closed.deliveries, closed.messages, watcher);
  report(`closed loop`, max, max.errors === 0 && max.unresolved === 0);
  watcher.stop();

  console.log(
    `\nSustained: ${Math.round(sustained).toLocaleString("en")} events/s with p99 delivery-to-searchable under ${TARGET_P99_MS} ms ` +
      `(target ≥ ${TARGET.toLocaleString("en")}: ${(sustained / TARGET).toFixed(2)}x); capacity in a closed loop ${Math.round(max.achieved).toLocaleString("en")} events/s. Load average ${load()}.`,
  );

  // Health counters are flushed every 3 s; then the dashboard is stopped and its rows counted.
  await sleep(4_000);
  const reads = foreign.requests.filter((r) => r.method === "GET" && r.url.startsWith("/v1/emails/")).length;
  await dashboard.stop();
  const counted = await count();
  const exact = counted.events === sentKeys.size && counted.messages === sentMessages.size;
  console.log(
    `\nIn the database: ${counted.events.toLocaleString("en")} stream events for ${sentKeys.size.toLocaleString("en")} distinct webhook-ids answered 204 ` +
      `(${duplicatesSent.toLocaleString("en")} of them also delivered a second time at once), ${counted.messages.toLocaleString("en")} messages of ${sentMessages.size.toLocaleString("en")}: ` +
      `${exact ? "every duplicate dropped, nothing lost" : "MISMATCH"}.`,
  );
  console.log(
    `Re-reads: ${reads.toLocaleString("en")} reads answered by the service during the run (REREAD_RATE_PER_S default 10 a second); ` +
      `${counted.rereads.toLocaleString("en")} messages still queued for a re-read at the end (not counted in "searchable": the provisional row is).`,
  );
  console.log(`Stream health: ${counted.accepted.toLocaleString("en")} deliveries counted as accepted.`);
  console.log(`Group commit, events per transaction: ${counted.perTransaction.map((s) => `${s.step} ${s.events.toLocaleString("en")} in ${s.transactions.toLocaleString("en")} (${(s.events / s.transactions).toFixed(1)})`).join(", ")}.`);
  process.exitCode = exact && sustained >= TARGET ? 0 : 1;
} finally {
  post.close();
  await dashboard.stop();
  await foreign.close();
  await database.drop();
  rmSync(tmp, { recursive: true, force: true });
}

type StepResult = { sent: number; achieved: number; errors: number; p50: number; p99: number; searchP50: number; searchP99: number; samples: number; unresolved: number; duplicates: number; cpuMsPerEvent: number | null; window: [number, number] };

/** The dashboard's CPU time (all its processes) since `before`, per delivery sent: independent of what else the machine runs. */
/** The monotonic clock in µs, the clock of a V8 CPU profile's timestamps: a step's window in the profile. */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function dashboardCpu(): number | null {
  return groupCpuMs(dashboard.process.pid);
}
function perEvent(before: number | null, deliveries: number): number | null {
  const after = dashboardCpu();
  return before === null || after === null || deliveries === 0 ? null : (after - before) / deliveries;
}

function register(messages: BenchMessage[]) {
  for (const m of messages) foreign.messages.set(m.id, serviceView(m));
}

/** One delivery (and its duplicate, at the same moment); its answer counts from `due`. */
function deliver(d: Delivery, due: number, watcher: ReturnType<typeof searchWatcher>): Promise<Answer[]> {
  const { body, headers } = signedDelivery(d, FOREIGN_SECRET);
  const copies = [post.post(ingestPath, body, headers, due)];
  if (d.duplicate) {
    copies.push(post.post(ingestPath, body, headers, due));
    duplicatesSent++;
  }
  return Promise.all(copies).then((answers) => {
    if (answers.some((a) => a.status === 204)) {
      sentKeys.add(d.key);
      sentMessages.add(d.message.id);
      // Polled from the 204 on (it is sent once the event committed): polling before it only
      // loaded the dashboard with searches that could not find it yet. The delay counts from `due`.
      if (d.message.sampled) watcher.watch(d, due);
    }
    return answers;
  });
}

async function openLoop(deliveries: Delivery[], messages: BenchMessage[], rate: number, watcher: ReturnType<typeof searchWatcher>): Promise<StepResult> {
  register(messages);
  watcher.reset();
  const pending: Promise<Answer[]>[] = [];
  const cpuBefore = dashboardCpu();
  const fromUs = monotonicUs();
  const start = performance.now();
  for (let k = 0; k < deliveries.length; k++) {
    const due = start + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(deliver(deliveries[k]!, due, watcher));
  }
  const answers = await Promise.all(pending);
  return summarize(answers, start, deliveries, watcher, perEvent(cpuBefore, deliveries.length), [fromUs, monotonicUs()]);
}

async function closedLoop(deliveries: Delivery[], messages: BenchMessage[], watcher: ReturnType<typeof searchWatcher>): Promise<StepResult> {
  register(messages);
  watcher.reset();
  const answers: Answer[][] = [];
  const cpuBefore = dashboardCpu();
  const fromUs = monotonicUs();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < deliveries.length && performance.now() - start < SECONDS * 1000) {
        const i = next++;
        answers[i] = await deliver(deliveries[i]!, performance.now(), watcher);
      }
    }),
  );
  const done = answers.flatMap((a, i) => (a ? [i] : []));
  return summarize(done.map((i) => answers[i]!), start, done.map((i) => deliveries[i]!), watcher, perEvent(cpuBefore, done.length), [fromUs, monotonicUs()]);
}

async function summarize(answers: Answer[][], start: number, deliveries: Delivery[], watcher: ReturnType<typeof searchWatcher>, cpuMsPerEvent: number | null, window: [number, number]): Promise<StepResult> {
  const all = answers.flat();
  const end = Math.max(...answers.map((a) => a[0]!.endedAt));
  const searchable = await watcher.settle(5_000);
  const times = all.map((a) => a.ms).sort((x, y) => x - y);
  return {
    sent: deliveries.length,
    achieved: deliveries.length / ((end - start) / 1000),
    errors: all.filter((a) => a.status !== 204).length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    searchP50: percentile(searchable.delays, 50),
    searchP99: percentile(searchable.delays, 99),
    samples: searchable.delays.length,
    unresolved: searchable.unresolved,
    duplicates: deliveries.filter((d) => d.duplicate).length,
    cpuMsPerEvent,
    window,
  };
}

function report(label: string, r: StepResult, ok: boolean) {
  console.log(
    `  ${label.padEnd(15)} took ${Math.round(r.achieved).toLocaleString("en").padStart(6)} events/s (${r.sent.toLocaleString("en")} + ${r.duplicates} duplicates)` +
      `  answer p50 ${r.p50.toFixed(0)} ms p99 ${r.p99.toFixed(0)} ms  searchable p50 ${r.searchP50.toFixed(0)} ms p99 ${r.searchP99.toFixed(0)} ms (${r.samples} samples${r.unresolved ? `, ${r.unresolved} NOT FOUND` : ""})` +
      `${r.cpuMsPerEvent === null ? "" : `  dashboard CPU ${r.cpuMsPerEvent.toFixed(2)} ms/event`}${r.errors ? `  ${r.errors} ERRORS` : ""}  load ${load()}${ok ? "" : "  NOT SUSTAINED"}`,
  );
  if (PROFILE) console.log(`    (in the CPU profile: monotonic µs ${r.window[0]}–${r.window[1]})`);
}

/**
 * Delivery to searchable, for sampled messages: once a delivery of theirs is answered 204, the
 * Messages API is asked for the message (by its recipient) every 50 ms until it lists it
 * with the status that event leads to. The delay ends when the answer that showed it came back.
 */
function searchWatcher(cookie: string) {
  type Watch = { d: Delivery; due: number };
  const waiting = new Map<string, Watch[]>();
  let delays: number[] = [];
  let stopped = false;
  const check = async (to: string, watches: Watch[]) => {
    const r = await fetch(`${baseURL}/api/p/${PROJECT}/messages?q=${encodeURIComponent(to)}`, { headers: { Cookie: cookie } });
    const at = performance.now();
    if (r.status !== 200) return;
    const row = ((await r.json()) as { data: { status: string }[] }).data[0];
    if (!row) return;
    const left = watches.filter((w) => {
      const shows = w.d.step === 0 || row.status === "delivered";
      if (shows && at >= w.due) delays.push(at - w.due);
      return !shows;
    });
    if (left.length) waiting.set(to, left);
    else waiting.delete(to);
  };
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const batch = [...waiting.entries()];
      for (let i = 0; i < batch.length; i += 8) await Promise.all(batch.slice(i, i + 8).map(([to, w]) => check(to, w).catch(() => {})));
      await sleep(Math.max(5, 50 - (performance.now() - started)));
    }
  })();
  return {
    watch: (d: Delivery, due: number) => waiting.set(d.message.to, [...(waiting.get(d.message.to) ?? []), { d, due }]),
    reset: () => {
      delays = [];
    },
    settle: async (timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs;
      while (waiting.size && performance.now() < deadline) await sleep(50);
      const result = { delays: [...delays].sort((a, b) => a - b), unresolved: [...waiting.values()].reduce((n, w) => n + w.length, 0) };
      waiting.clear();
      return result;
    },
    stop: () => {
      stopped = true;
      return loop;
    },
  };
}

/** Rows in the dashboard's database once it stopped: stream events and messages of the project, queued re-reads, accepted count. */
async function count(): Promise<{ events: number; messages: number; rereads: number; accepted: number; perTransaction: { step: string; events: number; transactions: number }[] }> {
  const { openDatabase } = await import("@/lib/server/db");
  const handle = await openDatabase(database.url ? { url: database.url } : { dataDir: database.dataDir! });
  try {
    const one = async (query: ReturnType<typeof sql>) => Number(Object.values(rowsOf(await handle.db.execute(query))[0] ?? {})[0] ?? 0);
    const project = sql`(select id from projects where external_id = ${PROJECT})`;
    return {
      events: await one(sql`select count(*) from indexed_events where project_id = ${project} and origin = 'stream'`),
      messages: await one(sql`select count(*) from indexed_messages where project_id = ${project}`),
      rereads: await one(sql`select count(*) from message_rereads where project_id = ${project}`),
      accepted: await one(sql`select coalesce(sum(accepted_count), 0) from event_stream_health where project_id = ${project}`),
      // Rows a transaction inserted share its id (xmin): how many deliveries the group commit took together, per step (the key's prefix).
      perTransaction: rowsOf<{ step: string; events: string | number; transactions: string | number }>(
        await handle.db.execute(sql`
          select split_part(webhook_id, '_', 1) as step, count(*) as events, count(distinct xmin::text) as transactions
            from indexed_events where project_id = ${project} and origin = 'stream' group by 1 order by min(seq)`),
      ).map((r) => ({ step: r.step, events: Number(r.events), transactions: Number(r.transactions) })),
    };
  } finally {
    await handle.close();
  }
}
