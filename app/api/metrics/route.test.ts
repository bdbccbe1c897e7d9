import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { createSendJob } from "@/lib/server/batches/jobs";
import { runJob, settleRunningJobs } from "@/lib/server/batches/runner";
import { sql } from "drizzle-orm";
import { db } from "@/lib/server/db";
import { alertStates } from "@/lib/server/db/schema/insight";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { ingestDelivery, ingestStream } from "@/lib/server/event-stream/ingest";
import { reconcileOnce } from "@/lib/server/event-stream/reconciler";
import { streamKeys } from "@/lib/server/event-stream/stream-cache";
import type { Actor, Project } from "@/lib/server/gate/access";
import { recordSentMessage } from "@/lib/server/message-index/record";
import { installJsonConsole, jsonLogger, uninstallJsonConsole } from "@/lib/server/log/json-log";
import { QUERY_TIMEOUT_MS } from "@/lib/server/metrics/database-gauges";
import { observeRequest } from "@/lib/server/metrics/http-requests";
import { series } from "@/lib/server/metrics/registry";
import { runRetentionPass } from "@/lib/server/retention/background";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { addVerifiedDomain } from "@/service/test/sending-fixtures";
import { GET as listViews } from "../p/[project]/views/route";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * GET /api/metrics (issue 29): only with the bearer token, and its series move with the work —
 * requests (through the hook on Node's server, around a real route handler), deliveries taken
 * by the real ingest, rows of a batch sent to the bundled service, the reconciler's modes,
 * retention. No label ever holds a path's own values.
 */
const TOKEN = "metrics-token-0123456789-abcdefghij";
let real: DashboardOnReal["real"];
let close: () => Promise<void>;
let alpha: Project;
let server: http.Server;
let base: string;

const env = (extra: Record<string, string | undefined> = {}) =>
  setTestEnv({ SERVICE_URL: real.url, SERVICE_API_KEY: real.key, SERVICE_TIMEOUT_MS: "20000", METRICS_TOKEN: TOKEN, ...extra });

beforeAll(async () => {
  ({ real, alpha, close } = await startDashboardOnReal({ serviceTimeoutMs: 20_000 }));
  env();
  await connectEventStream(alpha);
  // A plain Node server standing in for `next start`: the hook around it as instrumentation.ts
  // installs it, the views list answered by its real handler, every other path a 404 as Next's.
  server = http.createServer((req, res) =>
    observeRequest(req, res, () => {
      void (async () => {
        const m = /^\/api\/p\/([^/?]+)\/views(\?.*)?$/.exec(req.url ?? "");
        if (!m) return void res.writeHead(404).end();
        const answer = await listViews(await apiRequest(req.url!, { headers: { cookie: String(req.headers.cookie ?? "") } }), params({ project: m[1]! }));
        res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
      })();
      return true;
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await close();
});

const scrape = async (authorization?: string) => GET(await apiRequest("/api/metrics", { headers: authorization ? { authorization } : {} }), params({}));

type Sample = { name: string; labels: Record<string, string>; value: number };
async function samples(): Promise<Sample[]> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  const out: Sample[] = [];
  for (const line of (await res.text()).split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}
/** The value of one series (0 when absent). */
const valueOf = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;

describe("GET /api/metrics: who gets it", () => {
  it("answers 404 while METRICS_TOKEN is unset, whatever is sent", async () => {
    env({ METRICS_TOKEN: undefined });
    try {
      expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
      expect((await scrape()).status).toBe(404);
    } finally {
      env();
    }
  });

  it("answers 404 without the token, with a wrong one or another scheme; 200 in Prometheus's text format with it", async () => {
    for (const authorization of [undefined, "Bearer", "Bearer ", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, "Bearer wrong"]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization)).toBe(404);
      expect(await res.text()).not.toContain("mail_dashboard_");
    }
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const text = await res.text();
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "reread_queue_depth", "reread_queue_oldest_age_seconds", "insight_refresh_lag_seconds"]) {
      expect(text).toContain(`# TYPE mail_dashboard_${name} `);
    }
  });

  it("reads every series under one prefix, counters ending in _total", async () => {
    const all = await samples();
    expect(all.length).toBeGreaterThan(20);
    expect(all.every((s) => s.name.startsWith("mail_dashboard_"))).toBe(true);
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    const counters = [...text.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1]!);
    expect(counters.length).toBeGreaterThan(5);
    expect(counters.filter((name) => !name.endsWith("_total"))).toEqual([]);
  });
});

describe("GET /api/metrics: a slow database", () => {
  it("answers by the deadline, leaves the gauges as they were, counts the late read, and never stacks a second one behind it", async () => {
    const failures = (all: Sample[]) => valueOf(all, "mail_dashboard_metrics_collect_failures_total", { collector: "reread_queue" });
    const depth = (all: Sample[]) => all.find((s) => s.name === "mail_dashboard_reread_queue_depth")?.value;
    const before = await samples();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = (await db()).transaction(async (tx) => {
      await tx.execute(sql`lock table message_rereads in access exclusive mode`);
      locked();
      await held;
    });
    try {
      await isLocked;
      let started = Date.now();
      const during = await samples();
      expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS + 2_000);
      expect(failures(during) - failures(before)).toBe(1);
      expect(depth(during)).toBe(depth(before));
      // The late statement still waits: the next scrape does not send another, and answers at once.
      started = Date.now();
      const again = await samples();
      expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS);
      expect(failures(again) - failures(before)).toBe(2);
    } finally {
      release();
      await holding;
    }
    // Once it has ended, the gauges are read again: a scrape adds no failure.
    await expect.poll(async () => failures(await samples()) - failures(await samples()), { timeout: 5_000 }).toBe(0);
  });
});

describe("ops/grafana-dashboard.json", () => {
  it("queries only series this endpoint serves", async () => {
    const dashboard = JSON.parse(readFileSync(path.resolve(__dirname, "../../../ops/grafana-dashboard.json"), "utf8")) as { panels: { targets: { expr: string }[] }[] };
    const queried = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/\bmail_dashboard_\w+/g)].map((m) => m[0]))));
    expect(queried.size).toBeGreaterThan(10);
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap((m) => (m[2] === "histogram" ? [`${m[1]}_bucket`, `${m[1]}_count`, `${m[1]}_sum`] : [m[1]!])));
    expect([...queried].filter((name) => !served.has(name))).toEqual([]);
  });
});

describe("GET /api/metrics: the series move with the work", () => {
  it("counts a request by its route pattern, method and status, with its duration, never by its path", async () => {
    const admin = await createUser(createUserRequest.parse({ email: "metrics-admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR);
    const cookie = await sessionCookie(admin.user.id);
    const labels = { route: "/api/p/[project]/views", method: "GET", status: "200" };
    const before = await samples();
    const res = await fetch(`${base}/api/p/alpha/views`, { headers: { cookie } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const after = await samples();
    expect(valueOf(after, "mail_dashboard_http_requests_total", labels) - valueOf(before, "mail_dashboard_http_requests_total", labels)).toBe(1);
    expect(valueOf(after, "mail_dashboard_http_request_duration_seconds_count", labels) - valueOf(before, "mail_dashboard_http_request_duration_seconds_count", labels)).toBe(1);
    expect(valueOf(after, "mail_dashboard_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBeGreaterThanOrEqual(1);
  });

  it("writes the request's JSON log line with the id route() answered with, the user and the project", async () => {
    const admin = await createUser(createUserRequest.parse({ email: "metrics-logged@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR);
    const lines: string[] = [];
    const quiet = { error: () => {}, warn: () => {}, info: () => {}, log: () => {}, debug: () => {} };
    installJsonConsole(quiet, jsonLogger({ write: (line: string) => void lines.push(line) }));
    try {
      const res = await fetch(`${base}/api/p/alpha/views?email=ada@example.com`, { headers: { cookie: await sessionCookie(admin.user.id) } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === "request");
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: "info", requestId: res.headers.get("x-correlation-id"), route: "/api/p/[project]/views", method: "GET", status: 200, userId: admin.user.id, project: "alpha" });
      expect(typeof logged[0]!.durationMs).toBe("number");
      expect(lines.join("")).not.toContain("ada@example.com");
    } finally {
      uninstallJsonConsole();
    }
  });

  it("keeps 1,000 different unknown paths in one series, and no label holds a path or an address", async () => {
    const before = valueOf(await samples(), "mail_dashboard_http_requests_total", { route: "other", method: "GET", status: "404" });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${base}${path}`, { agent }, (res) => (res.resume(), res.on("end", () => resolve(res.statusCode!))));
        req.setTimeout(5_000, () => req.destroy(new Error("timeout")));
        req.on("error", reject);
      });
    const started = Date.now();
    for (let i = 0; i < 1_000; i += 50) {
      const codes = await Promise.all(Array.from({ length: 50 }, (_, j) => get(`/probe-${i + j}/user${i + j}@example.com?q=${i + j}`)));
      expect(codes.every((c) => c === 404)).toBe(true);
      expect(Date.now() - started).toBeLessThan(60_000);
    }
    agent.destroy();
    const all = await samples();
    expect(valueOf(all, "mail_dashboard_http_requests_total", { route: "other", method: "GET", status: "404" }) - before).toBe(1_000);
    const routes = new Set(all.filter((s) => s.name === "mail_dashboard_http_requests_total").map((s) => s.labels.route));
    expect(routes).toEqual(new Set(["/api/p/[project]/views", "other"]));
    for (const s of all) for (const v of Object.values(s.labels)) expect(v, `${s.name} ${JSON.stringify(s.labels)}`).not.toMatch(/@|probe-|\?/);
  }, 90_000);

  it("counts deliveries per project and outcome: recorded, duplicate, unusable, refused", async () => {
    const keys = await streamKeys("alpha");
    const signer = new Webhook(keys!.keys[0]!.toString("base64"));
    const deliver = (id: string, body: string, signer_ = signer) => {
      const at = new Date();
      return ingestDelivery("alpha", body, new Headers({ "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signer_.sign(id, at, body) }));
    };
    const event = JSON.stringify({ type: "email.delivered", createdAt: new Date().toISOString(), data: { messageId: "msg_metrics_1", project: "alpha", direction: "outbound", to: ["ada@example.com"], status: "delivered" } });
    const count = (all: Sample[], outcome: string) => valueOf(all, "mail_dashboard_event_stream_deliveries_total", { project: "alpha", outcome });
    const before = await samples();
    expect((await deliver("whd_metrics_1", event)).status).toBe(204);
    expect((await deliver("whd_metrics_1", event)).status).toBe(204); // the service's retry of one we took
    expect((await deliver("whd_metrics_2", "not json")).status).toBe(202);
    expect((await deliver("whd_metrics_3", event, new Webhook(Buffer.from("not-the-key-not-the-key-0123").toString("base64")))).status).toBe(401);
    // A project nobody registered is refused without a series of its own: its name is the sender's.
    expect((await ingestDelivery("nobody", event, new Headers())).status).toBe(401);
    // Refused before its body was read, for its declared size: refused too.
    const tooLarge = new Headers({ "webhook-id": "whd_metrics_4", "content-length": String(50 * 1024 * 1024) });
    await expect(ingestStream("alpha", tooLarge, () => ({ next: async () => null, stop: () => {} }))).rejects.toMatchObject({ status: 413 });
    const after = await samples();
    expect(Object.fromEntries(["recorded", "duplicate", "unusable", "refused"].map((o) => [o, count(after, o) - count(before, o)]))).toEqual({ recorded: 1, duplicate: 1, unusable: 1, refused: 2 });
    expect(after.some((s) => s.labels.project === "nobody")).toBe(false);
    // The delivery queued a re-read of its message and marked it for the insight refresher.
    expect(valueOf(after, "mail_dashboard_reread_queue_depth")).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => s.name === "mail_dashboard_insight_refresh_lag_seconds")).toBe(true);
  });

  it("counts a batch's rows as the runner settles them, by kind and outcome", async () => {
    await addVerifiedDomain(real.svc.db, real.svc.alpha.id, "alpha.test");
    const actor: Actor = { id: "u-metrics", email: "mia@example.com", name: "Mia", role: "marketer", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s-metrics" };
    await createUser(createUserRequest.parse({ email: actor.email, role: "marketer", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR).then((u) => (actor.id = u.user.id));
    const before = valueOf(await samples(), "mail_dashboard_batch_rows_total", { kind: "send", outcome: "sent" });
    const csv = ["email,name", "ann@example.com,Ann", "bob@example.com,Bob"].join("\n");
    const { id } = await createSendJob(alpha, actor, { csv, fileName: "metrics.csv", mapping: { email: "email", name: "name", variables: {} }, content: { from: { email: "news@alpha.test" }, subject: "Hi {{name}}", text: "Hi" }, confirmCount: 2 }, { start: false });
    await runJob(id);
    await settleRunningJobs();
    expect(valueOf(await samples(), "mail_dashboard_batch_rows_total", { kind: "send", outcome: "sent" }) - before).toBe(2);
  }, 60_000);

  it("shows each project's stream mode as the reconciler decided it, its alert levels, and retention's pruning", async () => {
    await reconcileOnce();
    let all = await samples();
    const modes = all.filter((s) => s.name === "mail_dashboard_event_stream_mode" && s.labels.project === "alpha");
    expect(modes.filter((s) => s.value === 1).map((s) => s.labels.mode)).toHaveLength(1);
    expect(modes.length).toBe(6);
    // An instance that never ran a pass (another held it) reports the same modes, read from the database.
    series().streamMode.reset();
    const elsewhere = (await samples()).filter((s) => s.name === "mail_dashboard_event_stream_mode" && s.labels.project === "alpha");
    expect(elsewhere.map((s) => [s.labels.mode, s.value]).sort()).toEqual(modes.map((s) => [s.labels.mode, s.value]).sort());

    await (await db()).insert(alertStates).values({ projectId: alpha.id, metric: "bounce", level: "warning" }).onConflictDoUpdate({ target: [alertStates.projectId, alertStates.metric], set: { level: "warning" } });
    all = await samples();
    expect(valueOf(all, "mail_dashboard_alert_level", { project: "alpha", metric: "bounce" })).toBe(1);

    await recordSentMessage({ projectId: alpha.id, messageId: "msg_metrics_old", request: { from: { email: "shop@alpha.test" }, to: [{ email: "old@example.com" }], subject: "Old", text: "hi" }, sentBy: null, idempotencyKey: null, source: "dashboard", createdAt: new Date(Date.now() - 40 * 86_400_000) });
    env({ INDEX_RETENTION_DAYS: "30", RETENTION_PAUSE_MS: "0" });
    const before = valueOf(all, "mail_dashboard_retention_pruned_rows_total", { kind: "messages" });
    expect((await runRetentionPass())?.messages).toBeGreaterThanOrEqual(1);
    all = await samples();
    expect(valueOf(all, "mail_dashboard_retention_pruned_rows_total", { kind: "messages" }) - before).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, "mail_dashboard_retention_passes_total")).toBeGreaterThanOrEqual(1);
    env();
  });
});
