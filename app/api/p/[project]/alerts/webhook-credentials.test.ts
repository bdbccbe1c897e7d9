import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as ALERTS } from "./route";
import { PUT as SETTINGS } from "@/app/api/p/[project]/alerts/settings/route";
import { GET as AUDIT } from "@/app/api/admin/audit/route";
import type { Project } from "@/lib/server/gate/access";
import { evaluateAlerts } from "@/lib/server/alerts/evaluate";
import { sendDueAlerts } from "@/lib/server/alerts/outbox";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { alertSettings } from "@/lib/server/db/schema/insight";
import { useTestDb } from "@/lib/server/db/test-db";
import { recordBounceTraffic } from "@/lib/server/alerts/test-traffic";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Finding 5 of the review: an admin saved an alert webhook with credentials in it, and a
 * support user reading the alert history saw `http://user:pw@host/hook`. Every reader (the
 * admin who saved it included) sees the URL masked, in the settings, the history and the
 * audit log, and the masked form saved back keeps the stored URL.
 */
const SECRET_URL = "http://hookuser:hookpass@127.0.0.1:9/hook?token=tok-0123456789#frag-secret";
const MASKED = "http://***@127.0.0.1:9/hook?token=***#***";
const SECRETS = ["hookuser", "hookpass", "tok-0123456789", "frag-secret"];
const good = { bounceWarning: 1, bounceLimit: 3, complaintWarning: 0.05, complaintLimit: 0.1 };

let dispose: () => Promise<void>;
let project: Project;
let admin: string;
let support: string;

beforeAll(async () => {
  setTestEnv({ ALERT_MIN_VOLUME: "5" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "ada@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "sam@support.test", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => dispose());

const put = async (body: unknown) => SETTINGS(await apiRequest("/api/p/p1/alerts/settings", { method: "PUT", cookie: admin, body }), params({ project: "p1" }));
const alerts = async (cookie: string) => (await ALERTS(await apiRequest("/api/p/p1/alerts", { cookie }), params({ project: "p1" }))).json();
const expectNoSecret = (text: string) => {
  for (const s of SECRETS) expect(text).not.toContain(s);
};

describe("an alert webhook's credentials", () => {
  it("are masked for every reader of the settings and the history, and kept when the masked form is saved back", async () => {
    const saved = await put({ ...good, webhookUrl: SECRET_URL });
    expect(saved.status).toBe(200);
    expect((await saved.json()).webhookUrl).toBe(MASKED);
    // The form shows the masked URL; saving it unchanged keeps the stored one.
    expect((await put({ ...good, bounceLimit: 4, webhookUrl: MASKED })).status).toBe(200);
    const [row] = await (await db()).select().from(alertSettings).where(eq(alertSettings.projectId, project.id));
    expect(row).toMatchObject({ webhookUrl: SECRET_URL, bounceLimit: 0.04 });

    await recordBounceTraffic(project.id, 5);
    expect((await evaluateAlerts()).changes.length).toBeGreaterThan(0);
    await sendDueAlerts({ policy: { allowPrivate: true } }); // port 9: refused, its error recorded
    for (const cookie of [support, admin]) {
      const view = await alerts(cookie);
      expect(view.settings.webhookUrl).toBe(MASKED);
      const targets = view.history.flatMap((h: { deliveries: { channel: string; target: string }[] }) => h.deliveries.filter((d) => d.channel === "webhook").map((d) => d.target));
      expect(targets).toContain(MASKED);
      expectNoSecret(JSON.stringify(view));
    }
  });

  it("never reach the audit log, nor its screen (entries written before masking included)", async () => {
    const rows = await (await db()).select().from(auditLog);
    expect(rows.some((r) => r.action === "alerts.settings.update")).toBe(true);
    expectNoSecret(JSON.stringify(rows));
    // An entry written before URLs were masked on the way in is masked on the way out.
    await (await db()).insert(auditLog).values({ actorEmail: "ada@admins.test", action: "webhook.create", target: SECRET_URL, outcome: "success", detail: { note: `was ${SECRET_URL}` } });
    const res = await AUDIT(await apiRequest("/api/admin/audit", { cookie: admin }), params({}));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(MASKED);
    expectNoSecret(text);
  });
});
