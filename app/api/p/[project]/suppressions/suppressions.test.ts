import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { eventStreams, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import type { Project } from "@/lib/server/gate/guard";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { GET as EXPORT } from "@/app/api/p/[project]/suppressions/export/route";
import { SUPPRESSION_EXPORT_PAGES } from "@/lib/server/export/sources";
import { GET as LIST, POST as ADD } from "./route";
import { GET as HOOKS } from "@/app/api/p/[project]/webhooks/route";
import { DELETE as DELETE_HOOK } from "@/app/api/p/[project]/webhooks/[id]/route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/** Suppressions linked to the bounce behind them, exported safely; the event stream protected. */
const SUPPRESSIONS = [
  { email: "=cmd|' /C calc'!A0@evil.test", reason: "manual", createdAt: "2026-01-03T00:00:00Z", messageId: null },
  { email: "gone@example.com", reason: "bounce", createdAt: "2026-01-02T00:00:00Z" },
  { email: "known@example.com", reason: "complaint", createdAt: "2026-01-01T00:00:00Z", messageId: "msg_service" },
];
const HOOKS_LIST = [
  { id: "wh_stream", url: "http://dash/api/ingest/p1", enabled: true, eventTypes: ["delivery"], signingSecret: "whsec_…redacted", createdAt: "2026-01-01T00:00:00Z" },
  { id: "wh_other", url: "https://hooks.example.com/x", enabled: true, eventTypes: ["bounce"], createdAt: "2026-01-01T00:00:00Z" },
];

let service: TestServer;
let close: () => Promise<void>;
let project: Project;
let support: string;
let marketer: string;
let admin: string;
const deleted: string[] = [];

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/suppressions" && req.method === "GET" && req.headers["x-service-product"] === "endless") {
      // A list longer than an export may read: every page has a next one.
      const n = Number(url.searchParams.get("cursor") ?? 0);
      const data = Array.from({ length: 100 }, (_, i) => ({ email: `s${n}-${i}@example.com`, reason: "manual", createdAt: "2026-01-01T00:00:00Z" }));
      return json(res, 200, { data, nextCursor: String(n + 1) });
    }
    if (url.pathname === "/v1/suppressions" && req.method === "GET") return json(res, 200, { data: SUPPRESSIONS, nextCursor: null });
    if (url.pathname === "/v1/suppressions" && req.method === "POST") return json(res, 201, { ...JSON.parse(req.body), createdAt: "2026-01-04T00:00:00Z" });
    if (url.pathname === "/v1/webhooks") return json(res, 200, { data: HOOKS_LIST, nextCursor: null });
    if (url.pathname.startsWith("/v1/webhooks/") && req.method === "DELETE") {
      deleted.push(url.pathname.split("/").pop()!);
      res.statusCode = 204;
      res.end();
      return;
    }
    json(res, 404, {});
  }));
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  await registerProject({ externalId: "endless", name: "Endless" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const d = await db();
  await d.insert(indexedMessages).values({ id: "msg_bounced", projectId: project.id, direction: "outbound", status: "bounced", from: "a@x.test", to: ["gone@example.com"], source: "dashboard", createdAt: new Date("2026-01-02T00:00:00Z") });
  await d.insert(indexedRecipients).values({ messageId: "msg_bounced", projectId: project.id, email: "gone@example.com", role: "to", createdAt: new Date("2026-01-02T00:00:00Z") });
  await d.insert(eventStreams).values({ projectId: project.id, webhookId: "wh_stream", url: "http://dash/api/ingest/p1", secretCiphertext: "x" });
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

describe("suppressions", () => {
  it("links each bounce or complaint to its message: the service's, else the index's", async () => {
    const res = await LIST(await apiRequest("/api/p/p1/suppressions", { cookie: marketer }), params({ project: "p1" }));
    const { data } = await res.json();
    expect(data.map((s: { linkedMessageId: string | null }) => s.linkedMessageId)).toEqual([null, "msg_bounced", "msg_service"]);
  });

  it("is added by support with the reason in the audit log, and refused to marketers", async () => {
    expect((await ADD(await apiRequest("/api/p/p1/suppressions", { method: "POST", cookie: marketer, body: { email: "x@example.com" } }), params({ project: "p1" }))).status).toBe(403);
    const bad = await ADD(await apiRequest("/api/p/p1/suppressions", { method: "POST", cookie: support, body: { email: "nope", reason: "manual" } }), params({ project: "p1" }));
    expect((await bad.json()).error.param).toBe("email");
    const ok = await ADD(await apiRequest("/api/p/p1/suppressions", { method: "POST", cookie: support, body: { email: "Block@Example.com", reason: "complaint" } }), params({ project: "p1" }));
    expect(ok.status).toBe(201);
    const audit = await listAudit(auditQuery.parse({ action: "suppression.create" }));
    expect(audit.data[0]).toMatchObject({ target: "block@example.com", actorEmail: "s@example.com", detail: { reason: "complaint" }, outcome: "success" });
  });

  it("exports CSV with formula-looking cells neutralised", async () => {
    const res = await EXPORT(await apiRequest("/api/p/p1/suppressions/export", { cookie: marketer }), params({ project: "p1" }));
    expect(res.headers.get("content-type")).toContain("text/csv");
    const text = await res.text();
    expect(text).toContain(`"'=cmd|' /C calc'!A0@evil.test",manual`);
    expect(text).toContain("gone@example.com,bounce,2026-01-02T00:00:00Z,msg_bounced");
  });

  it("says at the end of the file when it stopped at the service pages one export may read, as the audit entry does", async () => {
    const whole = await (await EXPORT(await apiRequest("/api/p/p1/suppressions/export", { cookie: marketer }), params({ project: "p1" }))).text();
    expect(whole).not.toContain("# Export stopped");
    const res = await EXPORT(await apiRequest("/api/p/endless/suppressions/export?format=csv", { cookie: marketer }), params({ project: "endless" }));
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + SUPPRESSION_EXPORT_PAGES * 100 + 1);
    expect(lines.at(-2)).toMatch(new RegExp(`^s${SUPPRESSION_EXPORT_PAGES - 1}-99@example.com,manual,`));
    expect(lines.at(-1)).toMatch(new RegExp(`^# Export stopped after ${SUPPRESSION_EXPORT_PAGES * 100} rows: it read the ${SUPPRESSION_EXPORT_PAGES} pages one export may ask the service for\\.`));
    const [entry] = (await listAudit(auditQuery.parse({ action: "export.suppressions", project: "endless" }))).data;
    expect(entry!.detail).toMatchObject({ rows: SUPPRESSION_EXPORT_PAGES * 100, ended: "limit", limit: "pages" });
  }, 60_000);
});

describe("webhooks", () => {
  it("lists secrets redacted away and marks the dashboard's event stream", async () => {
    const res = await HOOKS(await apiRequest("/api/p/p1/webhooks", { cookie: admin }), params({ project: "p1" }));
    const text = await res.text();
    expect(text).not.toContain("signingSecret");
    expect(JSON.parse(text).data.map((w: { isEventStream: boolean }) => w.isEventStream)).toEqual([true, false]);
  });

  it("refuses to delete the event stream unless its URL is typed back", async () => {
    const del = async (id: string, body: unknown) => DELETE_HOOK(await apiRequest(`/api/p/p1/webhooks/${id}`, { method: "DELETE", cookie: admin, body }), params({ project: "p1", id }));
    const refused = await del("wh_stream", {});
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("event_stream_protected");
    expect((await del("wh_stream", { confirmUrl: "http://wrong" })).status).toBe(409);
    expect(deleted).toEqual([]);
    expect((await del("wh_stream", { confirmUrl: "http://dash/api/ingest/p1" })).status).toBe(204);
    expect((await del("wh_other", {})).status).toBe(204);
    expect(deleted).toEqual(["wh_stream", "wh_other"]);
  });
});
