/**
 * `npm run bench:service [-- --postgres <url>]`: the local service on on-disk PGlite, driven
 * over loopback HTTP, as `npm run service` runs it (default sandbox timing of 1.2 s between
 * steps); then, when a Postgres URL is given (`--postgres` or SERVICE_DATABASE_URL), the same
 * on a fresh database of that server. Target: ≥ 1,000 accepted sends per second in batches on
 * either; each run prints its ratio to that.
 *
 * 1. Event → webhook: median time from an event (payload `createdAt`) to its signed delivery.
 * 2. Accepted sends per second, single and in batches of 100, as a burst the persisted queue
 *    absorbs (worker paused), then how fast the worker takes that backlog to its final states.
 * 3. The same acceptance with the worker running at full speed beside it.
 * 4. Batches with injected faults (SERVICE_FAULT_BATCH_EVERY=4) retried with their
 *    Idempotency-Key: the message count shows nothing was accepted twice.
 *
 * Sizes: BENCH_SINGLE (1000), BENCH_BATCHES (40), BENCH_LATENCY (100 messages).
 */
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { createApp } from "../app";
import { loadConfig } from "../config";
import type { Deps } from "../context";
import { openDatabase, type Database } from "../db/client";
import { domains } from "../db/schema";
import { createAccount, createApiKey, createProject } from "../lib/accounts";
import { newId } from "../lib/ids";
import { startReceiver } from "../test/sending-fixtures";
import { jobHandlers } from "../worker/handlers";
import { startWorker, type Worker } from "../worker/queue";
import { rowsOf } from "../../contract/db-rows";
import { dropDatabase } from "../../contract/db/drop-database";

const SINGLE_SENDS = Number(process.env.BENCH_SINGLE ?? 1000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const LATENCY_MESSAGES = Number(process.env.BENCH_LATENCY ?? 100);
/** Accepted sends per second in batches that the service must keep, on either database. */
const TARGET_PER_S = 1_000;

function postgresArgument(): string | null {
  const i = process.argv.indexOf("--postgres");
  const fromArg = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith("--postgres="))?.slice(11);
  return fromArg ?? process.env.SERVICE_DATABASE_URL ?? null;
}

/**
 * A database of its own on the Postgres server, dropped afterwards, so the run starts empty
 * and leaves nothing behind. Needs a role allowed to create databases.
 */
async function freshPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const name = `svc_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await dropDatabase(admin, name);
      await admin.end({ timeout: 5 });
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.95 * xs.length))];

type Result = { label: string; burstSingle: number; burstBatch: number; drainRate: number; busySingle: number; busyBatch: number; retried: number; added: number; latencies: number[]; failures: number };

async function runBench(label: string, database: Database): Promise<Result> {
  // The benchmark's webhook receiver listens on loopback, which only ALLOW_PRIVATE lets through.
  const config = loadConfig({}, { SERVICE_SEED: "off", SERVICE_RATE_LIMIT: 1_000_000, SERVICE_HOST: "127.0.0.1", SERVICE_WEBHOOK_ALLOW_PRIVATE: true });
  let worker: Worker | null = null;
  const deps: Deps = { db: database.db, config, kick: () => worker?.kick() };
  const app = createApp(deps);
  const account = await createAccount(deps.db, "Bench");
  const project = await createProject(deps.db, account.id, "bench");
  const { secret: key } = await createApiKey(deps.db, { accountId: account.id, projectId: project.id, name: "bench" });
  await deps.db.insert(domains).values({ id: newId("dom"), projectId: project.id, domain: "bench.test", status: "verified", records: [], receivingRecords: [] });

  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const email = (i: number) => ({ from: { email: "app@bench.test" }, to: [{ email: `user${i}@example.com` }], subject: `Bench ${i}`, text: "Hello from the bench" });
  const batchBody = (b: number) => ({ emails: Array.from({ length: 100 }, (_, i) => email(b * 100 + i)) });
  const request = (method: string, path: string, body?: unknown, idempotencyKey?: string) => fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  async function count(query: ReturnType<typeof sql>): Promise<number> {
    const result = await deps.db.execute(query);
    const rows = rowsOf<{ n: number }>(result);
    return Number(rows[0].n);
  }
  const unfinished = () => count(sql`select count(*)::int as n from messages where status in ('queued', 'sending', 'sent')`);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Waits until every message has reached a final state; answers the seconds it took. */
  async function settle(timeoutMs = 600_000) {
    const started = performance.now();
    while ((await unfinished()) > 0 && performance.now() - started < timeoutMs) await sleep(100);
    return (performance.now() - started) / 1000;
  }

  /** Runs `total` tasks with at most `concurrency` at once; answers the seconds it took. */
  async function pace(total: number, concurrency: number, task: (i: number) => Promise<void>) {
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }));
    return (performance.now() - started) / 1000;
  }

  let failures = 0;
  const expectStatus = async (res: Response, status: number) => {
    if (res.status !== status) failures++;
    await res.arrayBuffer();
  };
  const singles = (offset: number) => pace(SINGLE_SENDS, 16, async (i) => expectStatus(await request("POST", "/v1/emails", email(offset + i)), 202));
  const batches = (offset: number) => pace(BATCHES, 2, async (b) => expectStatus(await request("POST", "/v1/emails/batch", batchBody(offset + b)), 207));

  // 1. Event → webhook ─────────────────────────────────────────────────────────────────
  worker = startWorker(deps, jobHandlers);
  const latencies: number[] = [];
  let hookSecret = "";
  const receiver = await startReceiver((req) => {
    const payload = new Webhook(hookSecret).verify(req.body, req.headers) as { createdAt: string };
    latencies.push(req.at - Date.parse(payload.createdAt));
    return 204;
  });
  const hook = await (await request("POST", "/v1/webhooks", { url: receiver.url, eventTypes: ["accepted", "queued", "sending", "sent", "delivery"] })).json();
  hookSecret = hook.signingSecret;
  await pace(LATENCY_MESSAGES, 1, async (i) => {
    await expectStatus(await request("POST", "/v1/emails", email(i)), 202);
    await sleep(20); // about 50 messages a second: a steady load, not a burst
  });
  const expectedDeliveries = LATENCY_MESSAGES * 5;
  for (const until = Date.now() + 60_000; latencies.length < expectedDeliveries && Date.now() < until;) await sleep(50);
  await request("DELETE", `/v1/webhooks/${hook.id}`);
  await settle();

  // 2. A burst into the queue, then the worker drains it ─────────────────────────────
  await worker.stop();
  const burstSingle = SINGLE_SENDS / (await singles(10_000));
  const burstBatch = (BATCHES * 100) / (await batches(1_000));
  const backlog = await unfinished();
  worker = startWorker(deps, jobHandlers);
  worker.kick();
  const drainRate = backlog / (await settle());

  // 3. Acceptance beside a busy worker ─────────────────────────────────────────────────
  const busySingle = SINGLE_SENDS / (await singles(20_000));
  const busyBatch = (BATCHES * 100) / (await batches(2_000));
  await settle();

  // 4. Injected faults, retried with Idempotency-Keys ──────────────────────────────────
  const before = await count(sql`select count(*)::int as n from messages`);
  config.SERVICE_FAULT_BATCH_EVERY = 4;
  let retried = 0;
  await pace(BATCHES, 2, async (b) => {
    for (;;) {
      const res = await request("POST", "/v1/emails/batch", batchBody(3_000 + b), `bench-batch-${b}`);
      await res.arrayBuffer();
      if (res.status === 207) return;
      if (res.status !== 503 && res.status !== 409) return void failures++;
      retried++;
    }
  });
  config.SERVICE_FAULT_BATCH_EVERY = 0;
  const added = (await count(sql`select count(*)::int as n from messages`)) - before;

  await worker.stop();
  await receiver.close();
  server.close();
  return { label, burstSingle, burstBatch, drainRate, busySingle, busyBatch, retried, added, latencies, failures };
}

const day = new Date().toISOString().slice(0, 10);
const n = (v: number) => v.toFixed(0);
const ratio = (v: number) => `${(v / TARGET_PER_S).toFixed(2)}x of ${TARGET_PER_S.toLocaleString("en")}/s ${v >= TARGET_PER_S ? "OK" : "UNDER TARGET"}`;

function report(r: Result) {
  const expectedDeliveries = LATENCY_MESSAGES * 5;
  console.log(`\nLocal service benchmark, ${day}, ${r.label} (loopback HTTP, ${SINGLE_SENDS} single sends, ${BATCHES} batches of 100; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")})`);
  console.log(`  accepted, burst into the queue:  single ${n(r.burstSingle)}/s, batch ${n(r.burstBatch)}/s (${ratio(r.burstBatch)})`);
  console.log(`  worker drain of that backlog:    ${n(r.drainRate)} messages/s to a final state (sandbox steps 1.2 s apart)`);
  console.log(`  accepted, worker busy beside it: single ${n(r.busySingle)}/s, batch ${n(r.busyBatch)}/s (${ratio(r.busyBatch)})`);
  console.log(`  faults (1 batch in 4 → 503):     ${r.retried} retried answers, ${r.added} messages for ${BATCHES * 100} emails (${r.added === BATCHES * 100 ? "none accepted twice" : "MISMATCH"})`);
  console.log(`  event → webhook delivery:        median ${median(r.latencies).toFixed(1)} ms, p95 ${p95(r.latencies).toFixed(1)} ms (${r.latencies.length}/${expectedDeliveries} deliveries)`);
  if (r.failures) console.log(`  unexpected answers:              ${r.failures}`);
  console.log(`  README row: | ${day} | ${r.label} | ${n(r.burstSingle)}/s | ${n(r.burstBatch)}/s | ${n(r.busySingle)}/s | ${n(r.busyBatch)}/s | ${n(r.drainRate)}/s | ${median(r.latencies).toFixed(0)} ms |`);
}

const results: Result[] = [];
const dir = mkdtempSync(join(tmpdir(), "svc-bench-"));
try {
  const pglite = await openDatabase({ dataDir: join(dir, "data") });
  try {
    results.push(await runBench("PGlite on disk", pglite));
  } finally {
    await pglite.close();
  }
  report(results[0]);
  const serverUrl = postgresArgument();
  if (serverUrl) {
    const fresh = await freshPostgres(serverUrl);
    try {
      const pg = await openDatabase({ url: fresh.url });
      try {
        results.push(await runBench(`Postgres ${new URL(serverUrl).host}`, pg));
      } finally {
        await pg.close();
      }
    } finally {
      await fresh.drop();
    }
    report(results[1]);
  } else {
    console.log("\n(no Postgres run: pass --postgres postgres://user:pass@host:port/db or set SERVICE_DATABASE_URL; the role must be allowed to create databases)");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const bad = results.some((r) => r.failures || r.added !== BATCHES * 100);
process.exit(bad ? 1 : 0);
