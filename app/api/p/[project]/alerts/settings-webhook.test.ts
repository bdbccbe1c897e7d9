import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as ALERTS } from "./route";
import { PUT as SETTINGS } from "@/app/api/p/[project]/alerts/settings/route";
import { POST as ROTATE } from "@/app/api/p/[project]/alerts/webhook-secret/route";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { alertDeliveries } from "@/lib/server/db/schema/insight";
import { useTestDb } from "@/lib/server/db/test-db";
import { recordBounceTraffic } from "@/lib/server/alerts/test-traffic";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, params, sessionCookie, setTestEnv, startHttpServer, type RecordedRequest, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { evaluateAlerts } from "@/lib/server/alerts/evaluate";
import { sendDueAlerts } from "@/lib/server/alerts/outbox";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let project: Project;
let admin: string;
let support: string;
let receiver: TestServer;
let answers: number[] = [];
const good = { bounceWarning: 1, bounceLimit: 3, complaintWarning: 0.05, complaintLimit: 0.1, webhookUrl: "" };

const put = async (cookie: string, body: unknown) => SETTINGS(await apiRequest("/api/p/p1/alerts/settings", { method: "PUT", cookie, body }), params({ project: "p1" }));

beforeAll(async () => {
  receiver = await startHttpServer((_req, res) => {
    res.writeHead(answers.shift() ?? 204).end();
  });
  setTestEnv({ ALERT_MIN_VOLUME: "5" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "ada@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "sam@support.test", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(async () => {
  await dispose();
  await receiver.close();
});

describe("alert settings", () => {
  it("are changed by admins only, validated field by field", async () => {
    expect((await put(support, good)).status).toBe(403);
    const inverted = await put(admin, { ...good, bounceWarning: 5 });
    expect(inverted.status).toBe(400);
    expect((await inverted.json()).error).toMatchObject({ param: "bounceWarning", message: "bounceWarning: must be below the bounce limit" });
    const url = await put(admin, { ...good, webhookUrl: "ftp://hooks.example.com" });
    expect((await url.json()).error.param).toBe("webhookUrl");
    const negative = await put(admin, { ...good, complaintLimit: -1 });
    expect((await negative.json()).error.param).toBe("complaintLimit");
  });

  it("keep the thresholds, and give a new webhook its signing secret once", async () => {
    const saved = await put(admin, { ...good, webhookUrl: `${receiver.url}/alerts?token=abc` });
    expect(saved.status).toBe(200);
    const body = await saved.json();
    expect(body).toMatchObject({ bounceWarning: 1, bounceLimit: 3, complaintWarning: 0.05, hasWebhookSecret: true });
    expect(body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    // Never again: not on a second save, not in the screen's data, not in the audit log.
    const again = await (await put(admin, { ...good, bounceLimit: 4, webhookUrl: `${receiver.url}/alerts?token=abc` })).json();
    expect(again.webhookSecret).toBeUndefined();
    const view = await (await ALERTS(await apiRequest("/api/p/p1/alerts", { cookie: support }), params({ project: "p1" }))).json();
    expect(JSON.stringify(view)).not.toContain(body.webhookSecret);
    expect(view.settings).toMatchObject({ bounceLimit: 4, minVolume: 5, webhookUrl: `${receiver.url}/alerts?token=***` }); // the token masked
    const audit = await (await db()).select().from(auditLog).where(eq(auditLog.action, "alerts.settings.update"));
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain(body.webhookSecret);
    expect(JSON.stringify(audit)).not.toContain("token=abc");
    expect(audit[0]!.detail).toMatchObject({ bounceLimitPct: 3, webhook: `${receiver.url}/alerts?token=***` });
  });

  it("signs each alert webhook per Standard Webhooks, retries a failure with a back-off, and keeps the delivery id", async () => {
    const secret = (await (await ROTATE(await apiRequest("/api/p/p1/alerts/webhook-secret", { method: "POST", cookie: admin }), params({ project: "p1" }))).json()).webhookSecret;
    expect(secret).toMatch(/^whsec_/);
    await recordBounceTraffic(project.id, 3);
    expect((await evaluateAlerts()).changes).toEqual([expect.objectContaining({ metric: "bounce", to: "limit", notified: 2 })]);
    answers = [500];
    const policy = { allowPrivate: true };
    expect(await sendDueAlerts({ policy })).toMatchObject({ retrying: 2 }); // the webhook (500) and the email (no service here)
    const [hook] = await (await db()).select().from(alertDeliveries).where(eq(alertDeliveries.channel, "webhook"));
    expect(hook).toMatchObject({ status: "pending", attempts: 1, lastError: "The webhook answered HTTP 500" });
    const wait = (hook!.nextAttemptAt.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(25);
    expect(wait).toBeLessThanOrEqual(30);
    await (await db()).execute(sql`update alert_deliveries set next_attempt_at = now() where channel = 'webhook'`);
    expect((await sendDueAlerts({ policy })).sent).toBe(1);
    const posts = receiver.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(2);
    const verify = (r: RecordedRequest) => new Webhook(secret).verify(r.body, { "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) });
    const payload = verify(posts[1]!) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: "alert.raised", data: { project: { id: "p1" }, metric: "bounce", level: "limit", previousLevel: "ok", rate: 0.3, threshold: 0.04 } });
    expect(posts[0]!.headers["webhook-id"]).toBe(posts[1]!.headers["webhook-id"]);
    expect(posts[1]!.url).toBe("/alerts?token=abc");
  });

  it("refuses a private address unless allowed, for good", async () => {
    await (await db()).execute(sql`update alert_deliveries set status = 'pending', next_attempt_at = now(), attempts = 0 where channel = 'webhook'`);
    await sendDueAlerts();
    const [hook] = await (await db()).select().from(alertDeliveries).where(eq(alertDeliveries.channel, "webhook"));
    expect(hook).toMatchObject({ status: "failed", attempts: 1 });
    expect(hook!.lastError).toMatch(/127\.0\.0\.1/);
  });
});
