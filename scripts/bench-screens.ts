/**
 * `npm run bench:screens [-- --messages N] [--runs N] [--only name,name] [--reuse-index] [--list-scripts] [--demo]`: every screen's
 * weight and server time, measured the way a user meets them.
 *
 * Starts the bundled service and the built dashboard on fresh data (scripts/lib/stack.ts,
 * like the browser tests; with `--messages N` the dashboard's index is first filled with N
 * messages of the first project, before the dashboard starts: PGlite is one process per data
 * folder). Signs in as the admin through the login page, then for each screen:
 *
 * - opens it once in a fresh Chromium context (empty cache, the saved session) and counts,
 *   until the page settles, the JavaScript it downloaded (compressed, as `next start` sends
 *   it), its scripts and requests, and its largest contentful paint;
 * - loads it `--runs` times (after 3 warm-up loads) over plain HTTP with the session cookie
 *   and takes the time to the first byte of the answer, and to its last byte.
 *
 * `--demo` measures them as a user of `npm start` meets them: the bundled service with its
 * month of demo history arriving (SERVICE_SEED_HISTORY on), and the first project pushed over
 * the bounce-rate limit so every screen of it carries the alert banner (kept raised before each
 * screen; the row says whether the banner showed).
 *
 * `--list-scripts` also prints each script a screen downloaded, with its compressed size: with a
 * build made with NEXT_SOURCE_MAPS=1 (next.config.mjs), its source map says what is in it.
 *
 * Prints one row per screen with the ratios to the targets: first-load JS ≤ 200 KiB (the
 * sign-in page ≤ 160 KiB), time to first byte p50 ≤ 100 ms; and the load average, since
 * the machine is shared.
 */
import { chromium, type Browser } from "@playwright/test";
import { spawnSync } from "node:child_process";
import http from "node:http";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, ensureChromium } from "./lib/chromium";
import { stopChildrenOnSignal } from "./lib/child";
import { openRequests, stillPending, untilQuiet } from "./lib/page-quiet";
import { fromRoot } from "./lib/paths";
import { createContact, firstId, sendMessage, verifiedDomain } from "./lib/service-api";
import { signInCookie } from "./lib/sign-in";
import { startStack, type Stack } from "./lib/stack";
import { raiseBounceAlert } from "./lib/bounce-alert";

const KIB_TARGET = 200;
const LOGIN_KIB_TARGET = 160;
const TTFB_TARGET_MS = 100;
const WARMUP_LOADS = 3;
const LOG_DIR = fromRoot("test-results", "bench-logs", "screens");

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const MESSAGES = Number(option("messages") ?? 0);
const RUNS = Number(option("runs") ?? 20);
const ONLY = option("only")?.split(",").map((s) => s.trim().toLowerCase());
const REUSE_INDEX = process.argv.includes("--reuse-index");
const LIST_SCRIPTS = process.argv.includes("--list-scripts");
const DEMO = process.argv.includes("--demo");

// --- The fill step: a child process under the react-server condition (server modules import "server-only").
type FillResult = { recipient: string };

if (process.env.BENCH_SCREENS_FILL) {
  const { dataDir, projects, messages, outFile } = JSON.parse(process.env.BENCH_SCREENS_FILL) as { dataDir: string; projects: string[]; messages: number; outFile: string };
  const { sql } = await import("drizzle-orm");
  const { rowsOf } = await import("@/contract/db-rows");
  const { consumerProvider } = await import("@/lib/insight/providers");
  const { openDatabase } = await import("@/lib/server/db");
  const { projects: projectsTable } = await import("@/lib/server/db/schema/core");
  const { markAllOnce } = await import("@/lib/server/insight/dirty");
  const { refreshInsight } = await import("@/lib/server/insight/refresh");
  const { loadIndexFixture } = await import("./lib/index-fixture");
  const handle = await openDatabase({ dataDir });
  try {
    const rows = await handle.db.insert(projectsTable).values(projects.map((externalId) => ({ externalId, name: externalId }))).returning();
    const main = rows.find((r) => r.externalId === projects[0])!;
    let shown = 0;
    const result = await loadIndexFixture(handle.db, {
      projectId: main.id,
      messages,
      days: 90,
      onProgress: (done) => {
        if (done - shown >= 100_000 || done === messages) {
          shown = done;
          process.stdout.write(`  ${done.toLocaleString("en")} messages\n`);
        }
      },
    });
    console.log(`Index filled: ${result.messages.toLocaleString("en")} messages in ${(result.ms / 1000).toFixed(1)} s.`);
    // The rollups as a dashboard that had indexed this mail as it came would hold them, so the
    // screens are measured reading them rather than while the refresher folds a million
    // messages in. Recipient domains are classified now (company ones as "other") instead of
    // by MX lookups in the background.
    const rollupStarted = performance.now();
    const domains = rowsOf<{ domain: string }>(await handle.db.execute(sql`select distinct split_part(email, '@', 2) as domain from indexed_recipients where role = 'to'`));
    for (const { domain } of domains) {
      const provider = consumerProvider(domain) ?? "other";
      await handle.db.execute(sql`insert into insight_domains (domain, provider, source, expires_at) values (${domain}, ${provider}, 'list', now() + interval '30 days') on conflict do nothing`);
    }
    const marked = await markAllOnce(handle.db);
    const refreshed = await refreshInsight({ batchSize: 20_000 }, handle.db);
    await handle.db.execute(sql`analyze`);
    console.log(`Rollups built from ${marked.toLocaleString("en")} messages (${refreshed.toLocaleString("en")} refreshed) in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s.`);
    // A recipient of the newest message: the recipient screen then reads a real history.
    const [newest] = rowsOf<{ email: string }>(
      await handle.db.execute(sql`select r.email from indexed_recipients r join indexed_messages m on m.id = r.message_id
                                   where m.project_id = ${main.id} and m.direction = 'outbound' and r.role = 'to' order by m.created_at desc limit 1`),
    );
    writeFileSync(outFile, JSON.stringify({ recipient: newest!.email } satisfies FillResult));
  } finally {
    await handle.close();
  }
  process.exit(0);
}

/**
 * With `--reuse-index`, a filled index is kept in .data/ and copied into later runs of the same
 * size and projects (the fixture is deterministic; its dates are relative to when it was made).
 */
function fillIndex(dataDir: string, projects: string[], messages: number): FillResult {
  const cache = fromRoot(".data", `bench-screens-index-${messages}`);
  const cacheKey = JSON.stringify({ projects, messages, version: 2 });
  const resultFile = path.join(cache, "result.json");
  if (REUSE_INDEX && existsSync(path.join(cache, "key.json")) && readFileSync(path.join(cache, "key.json"), "utf8") === cacheKey) {
    console.log(`Copying the filled index of ${messages.toLocaleString("en")} messages from ${cache} (--reuse-index)...`);
    cpSync(path.join(cache, "pgdata"), dataDir, { recursive: true });
    return JSON.parse(readFileSync(resultFile, "utf8")) as FillResult;
  }
  console.log(`Filling the dashboard's index with ${messages.toLocaleString("en")} messages of ${projects[0]} (before it starts)...`);
  const self = fileURLToPath(import.meta.url);
  const outFile = path.join(LOG_DIR, "fill-result.json");
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", self], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SCREENS_FILL: JSON.stringify({ dataDir, projects, messages, outFile }) },
  });
  if (run.status !== 0) throw new Error(`filling the index failed (exit ${run.status})`);
  const result = JSON.parse(readFileSync(outFile, "utf8")) as FillResult;
  if (REUSE_INDEX) {
    rmSync(cache, { recursive: true, force: true });
    cpSync(dataDir, path.join(cache, "pgdata"), { recursive: true });
    writeFileSync(resultFile, JSON.stringify(result));
    writeFileSync(path.join(cache, "key.json"), cacheKey);
  }
  return result;
}

// --- Measuring.

type Screen = { name: string; path: string; signedOut?: boolean };
type Row = { screen: Screen; status: number; kib: number; scripts: number; requests: number; lcp: number; banner: boolean; ttfb: number[]; done: number[] };

const load = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

/** One GET of the page with the session: time to the answer's first byte and to its last. */
function timedGet(url: string, cookie: string | null): Promise<{ status: number; ttfb: number; done: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) } }, (res) => {
      let ttfb = NaN;
      res.once("data", () => (ttfb = performance.now() - started));
      res.on("data", () => {});
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ttfb: Number.isNaN(ttfb) ? performance.now() - started : ttfb, done: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** The screen opened once in a fresh context: what it downloaded, and when its largest content painted. */
async function coldLoad(browser: Browser, stack: Stack, screen: Screen, storageState: string | undefined) {
  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: screen.signedOut ? undefined : storageState });
  try {
    const page = await context.newPage();
    openRequests(page);
    const sizes: Promise<void>[] = [];
    let scriptBytes = 0;
    let scripts = 0;
    let requests = 0;
    const listed: string[] = [];
    page.on("request", (request) => {
      requests++;
    });
    page.on("requestfinished", (request) => {
      if (request.resourceType() !== "script") return;
      scripts++;
      sizes.push(
        request.sizes().then((s) => {
          scriptBytes += s.responseBodySize;
          if (LIST_SCRIPTS) listed.push(`    ${(s.responseBodySize / 1024).toFixed(1).padStart(6)} KiB  ${new URL(request.url()).pathname}`);
        }),
      );
    });
    const response = await page.goto(screen.path);
    if (!(await untilQuiet(page, 30_000))) console.warn(`  ${page.url()} had not settled after 30 s: ${await stillPending(page)}`);
    await Promise.all(sizes);
    if (LIST_SCRIPTS) console.log(`  ${screen.name}:\n${listed.sort().join("\n")}`);
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let latest = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) latest = entry.startTime;
          }).observe({ type: "largest-contentful-paint", buffered: true });
          setTimeout(() => resolve(latest), 200);
        }),
    );
    const banner = (await page.getByRole("region", { name: "Deliverability alerts" }).locator("[data-alert]").count()) > 0;
    return { status: response?.status() ?? 0, kib: scriptBytes / 1024, scripts, requests, lcp, banner };
  } finally {
    await context.close();
  }
}

/** A newsletter-like html body: a table layout, styles, a remote image and links. */
const BENCH_HTML = `<!doctype html><html><head><style>body{font-family:sans-serif}.btn{background:#2563eb;color:#fff}</style></head><body><table width="600"><tr><td><img src="https://acme.test/logo.png" alt="Acme" width="120"></td></tr><tr><td><h1>Your order has shipped</h1><p>Hello Ada, your order <b>#10423</b> is on its way.</p><p><a class="btn" href="https://acme.test/orders/track">Track your order</a></p></td></tr></table></body></html>`;

async function screensOf(stack: Stack, cookie: string, filled: FillResult | null): Promise<Screen[]> {
  const project = stack.projects[0]!;
  const access = { serviceURL: stack.serviceURL, key: stack.serviceKey, project };
  const domain = await verifiedDomain(access);
  const message = await sendMessage(access, { to: "delivered@example.com", subject: "Benchmark message" });
  // A message with an html body, as most mail has: its screen draws the html in a frame.
  const htmlMessage = await sendMessage(access, { to: "delivered@example.com", subject: "Benchmark html message", html: BENCH_HTML });
  const template = await firstId(access, "/v1/templates");
  const domainId = await firstId(access, "/v1/domains");
  const contact = await createContact(access, `bench-${Date.now()}@example.com`);
  const created = await fetch(`${stack.baseURL}/api/p/${encodeURIComponent(project)}/batches`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: stack.baseURL, "Content-Type": "application/json" },
    body: JSON.stringify({
      csv: "email,name\nbench-screens-1@example.com,One\nbench-screens-2@example.com,Two",
      fileName: "bench.csv",
      mapping: { email: "email", name: "name", variables: {} },
      content: { from: { email: `bench@${domain}` }, subject: "Benchmark batch", text: "Hello." },
      confirmCount: 2,
    }),
  });
  if (created.status !== 201) throw new Error(`POST batches: HTTP ${created.status} ${await created.text()}`);
  const job = ((await created.json()) as { id: string }).id;
  // With a filled index, the recipient of its newest message; otherwise the one just sent to.
  const recipient = filled?.recipient ?? "delivered@example.com";
  const p = `/p/${encodeURIComponent(project)}`;
  const e = encodeURIComponent;
  return [
    { name: "login", path: "/login", signedOut: true },
    { name: "overview", path: p },
    { name: "deliverability", path: `${p}/deliverability` },
    { name: "tags", path: `${p}/tags` },
    { name: "alerts", path: `${p}/alerts` },
    { name: "messages", path: `${p}/messages` },
    { name: "message", path: `${p}/messages/${e(message)}` },
    { name: "html message", path: `${p}/messages/${e(htmlMessage)}` },
    { name: "compose", path: `${p}/compose` },
    { name: "batches", path: `${p}/batches` },
    { name: "batch job", path: `${p}/batches/${e(job)}` },
    { name: "scheduled", path: `${p}/scheduled` },
    { name: "templates", path: `${p}/templates` },
    { name: "template", path: `${p}/templates/${e(template)}` },
    { name: "contacts", path: `${p}/contacts` },
    { name: "contact", path: `${p}/contacts/${e(contact)}` },
    { name: "contact import", path: `${p}/contacts/import` },
    { name: "suppressions", path: `${p}/suppressions` },
    { name: "domains", path: `${p}/domains` },
    { name: "domain", path: `${p}/domains/${e(domainId)}` },
    { name: "api keys", path: `${p}/api-keys` },
    { name: "webhooks", path: `${p}/webhooks` },
    { name: "recipient", path: `${p}/recipients/${e(recipient)}` },
    { name: "inbound simulate", path: `${p}/inbound/simulate` },
    { name: "account", path: "/account" },
    { name: "admin users", path: "/admin/users" },
    { name: "projects", path: "/admin/projects" },
    { name: "audit", path: "/admin/audit" },
  ];
}

const ratio = (value: number, target: number) => `${(value / target).toFixed(2)}x`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

function printRows(rows: Row[]): void {
  console.log(`\n| screen | HTTP | JS KiB | ratio | scripts | requests | TTFB p50 | ratio | TTFB p95 | HTML done p50 | LCP | banner |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|`);
  for (const r of rows) {
    const kibTarget = r.screen.signedOut ? LOGIN_KIB_TARGET : KIB_TARGET;
    const p50 = percentile(r.ttfb, 50);
    console.log(
      `| ${r.screen.name} | ${r.status} | ${r.kib.toFixed(1)} | ${ratio(r.kib, kibTarget)} | ${r.scripts} | ${r.requests} | ${p50.toFixed(0)} ms | ${ratio(p50, TTFB_TARGET_MS)} | ${percentile(r.ttfb, 95).toFixed(0)} ms | ${percentile(r.done, 50).toFixed(0)} ms | ${r.lcp.toFixed(0)} ms | ${r.banner ? "yes" : "no"} |`,
    );
  }
  const heavy = rows.filter((r) => r.kib > (r.screen.signedOut ? LOGIN_KIB_TARGET : KIB_TARGET)).map((r) => r.screen.name);
  const slow = rows.filter((r) => percentile(r.ttfb, 50) > TTFB_TARGET_MS).map((r) => r.screen.name);
  console.log(`\nOver the weight target (${KIB_TARGET} KiB, sign-in ${LOGIN_KIB_TARGET}): ${heavy.length ? heavy.join(", ") : "none"}`);
  console.log(`Over the TTFB target (p50 ${TTFB_TARGET_MS} ms): ${slow.length ? slow.join(", ") : "none"}`);
  if (DEMO) {
    const without = rows.filter((r) => r.screen.path.startsWith("/p/") && !r.banner).map((r) => r.screen.name);
    console.log(`Project screens without the alert banner: ${without.length ? without.join(", ") : "none"}`);
  }
}

/** Until the newest day of the demo's month has arrived (it comes newest first): the 24-hour count stops growing, at most 3 minutes. */
async function awaitDemoDay(baseURL: string, cookie: string, project: string): Promise<void> {
  const sent24h = async () => {
    const res = await fetch(`${baseURL}/api/p/${encodeURIComponent(project)}/overview?range=24h`, { headers: { Cookie: cookie } });
    return ((await res.json()) as { counts: { "24h": { sent: number } } }).counts["24h"].sent;
  };
  const deadline = Date.now() + 180_000;
  let last = -1;
  while (Date.now() < deadline) {
    const now = await sent24h();
    if (now > 0 && now === last) break;
    last = now;
    await new Promise((r) => setTimeout(r, 5_000));
  }
  console.log(`Demo: ${last.toLocaleString("en")} messages in the last 24 hours of ${project}; the rest of its month keeps arriving.`);
}

async function main(): Promise<void> {
  stopChildrenOnSignal();
  mkdirSync(LOG_DIR, { recursive: true });
  console.log(`Load average at start: ${load()} (${os.cpus().length} cores)`);
  let filled: FillResult | null = null;
  const stack = await startStack({
    logDir: LOG_DIR,
    demoHistory: DEMO,
    fastAlerts: true, // raiseBounceAlert waits for the alert banner
    beforeDashboard: MESSAGES > 0 ? async ({ dataDir, projects }) => void (filled = fillIndex(dataDir, projects, MESSAGES)) : undefined,
  });
  const browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_ARGS });
  const rows: Row[] = [];
  try {
    const stateFile = `${LOG_DIR}/admin.json`;
    const cookie = await signInCookie(browser, stack.baseURL, stack.admin, stateFile);
    const project = stack.projects[0]!;
    const access = { serviceURL: stack.serviceURL, key: stack.serviceKey, project };
    if (DEMO) await awaitDemoDay(stack.baseURL, cookie, project);
    const screens = (await screensOf(stack, cookie, filled)).filter((s) => !ONLY || ONLY.includes(s.name));
    console.log(`Dashboard ${stack.baseURL}; ${screens.length} screens, ${WARMUP_LOADS} warm-up and ${RUNS} timed loads each.`);
    for (const screen of screens) {
      const url = `${stack.baseURL}${screen.path}`;
      const withCookie = screen.signedOut ? null : cookie;
      // The demo's arriving month lowers the bounce rate; the banner is raised again if it cleared.
      if (DEMO && screen.path.startsWith("/p/")) await raiseBounceAlert({ baseURL: stack.baseURL, cookie, access });
      for (let i = 0; i < WARMUP_LOADS; i++) await timedGet(url, withCookie);
      const cold = await coldLoad(browser, stack, screen, stateFile);
      const ttfb: number[] = [];
      const done: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = await timedGet(url, withCookie);
        if (t.status !== 200) console.warn(`  ${screen.name}: HTTP ${t.status}`);
        ttfb.push(t.ttfb);
        done.push(t.done);
      }
      const row = { screen, ...cold, ttfb, done };
      rows.push(row);
      console.log(`  ${pad(screen.name, 16)}: ${cold.kib.toFixed(1)} KiB in ${cold.scripts} scripts, ${cold.requests} requests, TTFB p50 ${percentile(ttfb, 50).toFixed(0)} ms, LCP ${cold.lcp.toFixed(0)} ms${DEMO ? `, banner ${cold.banner ? "shown" : "NOT shown"}` : ""} (load ${load()})`);
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
  printRows(rows);
  console.log(`\nIndex: ${MESSAGES.toLocaleString("en")} messages${DEMO ? ", with the demo's month and the bounce alert raised" : ""}. Load average at end: ${load()}.`);
}

await main();
