/**
 * `npm run bench:export [-- --messages N] [--format csv|ndjson]`: an export of N messages
 * (default 1,000,000) through the built dashboard, as the Messages screen's Export asks for it.
 *
 * Starts the bundled service and the built dashboard on fresh data (scripts/lib/stack.ts); the
 * dashboard's index is filled with N messages of the first project before it starts (PGlite is
 * one process per data folder) by the fixture loader. Signs in, runs one small export to load
 * the route, then exports every message over plain HTTP, reading the answer as it streams, and
 * prints the rows a second (target ≥ 20,000) and how far the dashboard's resident memory rose
 * above its level before the export (target < 50 MB: the export holds a page, not the rows).
 */
import { spawnSync } from "node:child_process";
import http from "node:http";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { stopChildrenOnSignal } from "./lib/child";
import { fromRoot } from "./lib/paths";
import { sampleRss } from "./lib/rss";
import { sessionCookie } from "./lib/sign-in";
import { startStack } from "./lib/stack";

const LOG_DIR = fromRoot("test-results", "bench-logs", "export");
const option = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const MESSAGES = Number(option("messages")?.replaceAll(/[_,]/g, "")) || 1_000_000;
const FORMAT = option("format") === "ndjson" ? "ndjson" : "csv";
const ROWS_PER_S_TARGET = 20_000;
const RSS_GROWTH_TARGET_MB = 50;
const mb = (bytes: number) => bytes / 1024 / 1024;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

// --- The fill step: a child under the react-server condition (the server modules import "server-only").
if (process.env.BENCH_EXPORT_FILL) {
  const { dataDir, project, messages } = JSON.parse(process.env.BENCH_EXPORT_FILL) as { dataDir: string; project: string; messages: number };
  const { sql } = await import("drizzle-orm");
  const { openDatabase } = await import("@/lib/server/db");
  const { projects } = await import("@/lib/server/db/schema/core");
  const { loadIndexFixture } = await import("./lib/index-fixture");
  const handle = await openDatabase({ dataDir });
  try {
    const [main] = await handle.db.insert(projects).values({ externalId: project, name: project }).returning();
    let shown = 0;
    const result = await loadIndexFixture(handle.db, {
      projectId: main!.id,
      messages,
      onProgress: (done) => {
        if (done - shown >= 100_000 || done === messages) {
          shown = done;
          process.stdout.write(`  ${done.toLocaleString("en")} messages\n`);
        }
      },
    });
    await handle.db.execute(sql`analyze`);
    console.log(`Index filled: ${result.messages.toLocaleString("en")} messages in ${(result.ms / 1000).toFixed(1)} s.`);
  } finally {
    await handle.close();
  }
  process.exit(0);
}

/** The dashboard's process group: the process started with this data folder (the stack does not hand out its pid). */
function dashboardGroup(dataDir: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`DASHBOARD_DATA_DIR=${dataDir}`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    } catch {
      // Gone, or not ours to read.
    }
  }
  throw new Error(`no process runs with DASHBOARD_DATA_DIR=${dataDir}`);
}

/** GETs `url` and reads the answer as it comes, counting its lines; bounded by `timeoutMs`. */
function streamedGet(url: string, cookie: string, timeoutMs: number): Promise<{ status: number; lines: number; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Cookie: cookie } }, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes, ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
  });
}

async function main(): Promise<void> {
  stopChildrenOnSignal();
  mkdirSync(LOG_DIR, { recursive: true });
  console.log(`Load average at start: ${load()} (${os.cpus().length} cores)`);
  let dataDir = "";
  const stack = await startStack({
    logDir: LOG_DIR,
    beforeDashboard: async (dashboard) => {
      dataDir = dashboard.dataDir;
      console.log(`Filling the dashboard's index with ${MESSAGES.toLocaleString("en")} messages of ${dashboard.projects[0]} (before it starts)...`);
      const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", fileURLToPath(import.meta.url)], {
        stdio: "inherit",
        env: { ...process.env, BENCH_EXPORT_FILL: JSON.stringify({ dataDir, project: dashboard.projects[0], messages: MESSAGES }) },
      });
      if (run.status !== 0) throw new Error(`filling the index failed (exit ${run.status})`);
    },
  });
  try {
    const cookie = await sessionCookie(stack.baseURL, stack.admin);
    const url = `${stack.baseURL}/api/p/${encodeURIComponent(stack.projects[0]!)}/messages/export?format=${FORMAT}`;
    const rss = sampleRss(dashboardGroup(dataDir), 100);
    // Loads the route's code and warms the database's cache of the newest pages.
    const warm = await streamedGet(`${url}&q=${encodeURIComponent("status:bounced after:1d")}`, cookie, 120_000);
    if (warm.status !== 200) throw new Error(`warm-up export: HTTP ${warm.status}`);
    const before = rss.mark();
    const run = await streamedGet(url, cookie, 30 * 60_000);
    const peak = rss.windowPeak();
    rss.stop();
    if (run.status !== 200) throw new Error(`export: HTTP ${run.status}`);
    const rows = run.lines - (FORMAT === "csv" ? 1 : 0);
    const perS = rows / (run.ms / 1000);
    const growth = mb(peak - before);
    console.log(`\nExported ${rows.toLocaleString("en")} of ${MESSAGES.toLocaleString("en")} messages as ${FORMAT} (${mb(run.bytes).toFixed(0)} MB) in ${(run.ms / 1000).toFixed(1)} s.`);
    console.log(`| figure | value | target | ratio |`);
    console.log(`| --- | --- | --- | --- |`);
    console.log(`| rows/s | ${Math.round(perS).toLocaleString("en")} | ≥ ${ROWS_PER_S_TARGET.toLocaleString("en")} | ${(perS / ROWS_PER_S_TARGET).toFixed(2)} |`);
    console.log(`| dashboard RSS growth | ${growth.toFixed(1)} MB (${mb(before).toFixed(0)} → peak ${mb(peak).toFixed(0)} MB) | < ${RSS_GROWTH_TARGET_MB} MB | ${(growth / RSS_GROWTH_TARGET_MB).toFixed(2)} |`);
    console.log(`Load average at end: ${load()}.`);
    if (rows !== MESSAGES) console.warn(`Expected ${MESSAGES} rows, counted ${rows}.`);
  } finally {
    await stack.stop();
  }
}

await main();
