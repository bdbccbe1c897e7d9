import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, openDatabase, type Db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { alertDeliveries, alertEvents } from "@/lib/server/db/schema/insight";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { overviewCounts } from "@/lib/server/overview";
import { createUser, setUserProjects, updateUser } from "@/lib/server/users";
import { startDashboardOnBundled, type DashboardOnBundled } from "@/lib/test/dashboard-on-bundled";
import { evaluateAlerts } from "./evaluate";
import { sendDueAlerts } from "./outbox";
import { activeAlerts } from "./view";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Alerts end to end on the bundled service: mail sent through the service, indexed from its
 * signed webhooks, checked, and the alert emails sent back through the service itself.
 */
let t: DashboardOnBundled;
let alpha: Project;
let beta: Project;
const HOUR = 3_600_000;

/** Messages the service holds per recipient, with their subjects. */
async function mailTo(address: string): Promise<string[]> {
  const { messages } = await import("@/service/db/schema");
  const rows = await t.service.svc.db.select({ to: messages.to, subject: messages.subject }).from(messages).orderBy(messages.createdAt, messages.id);
  return rows.filter((r) => r.to.some((a) => a.email === address)).map((r) => r.subject ?? "");
}

beforeAll(async () => {
  t = await startDashboardOnBundled({ ALERT_MIN_VOLUME: "10" });
  await t.service.verifiedDomain("alpha", "alpha.test");
  await t.service.verifiedDomain("beta", "beta.test");
  alpha = await t.register("alpha");
  beta = await t.register("beta");
  await createUser(createUserRequest.parse({ email: "ada@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR);
  await createUser(createUserRequest.parse({ email: "bo@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR);
  const limited = await createUser(createUserRequest.parse({ email: "cy@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR);
  await setUserProjects(limited.user.id, { allProjects: false, projectIds: [beta.id] }, SYSTEM_ACTOR);
  const gone = await createUser(createUserRequest.parse({ email: "dee@admins.test", role: "admin", allProjects: true }), SYSTEM_ACTOR);
  await updateUser(gone.user.id, { active: false }, SYSTEM_ACTOR);
  await createUser(createUserRequest.parse({ email: "sam@support.test", role: "support", allProjects: true }), SYSTEM_ACTOR);
}, 120_000);
afterAll(() => t?.close());

describe("alerts on the bundled service", () => {
  it("a project pushed over the bounce limit gets the banner and exactly one email per admin, once recovered one more", async () => {
    for (let i = 0; i < 8; i++) await t.send("alpha", `delivered+${i}@gmail.com`, `Receipt ${i}`);
    for (let i = 0; i < 12; i++) await t.send("alpha", `bounce+${i}@yahoo.com`, `Receipt b${i}`);
    await t.indexed();

    const report = await evaluateAlerts();
    expect(report.changes).toEqual([{ project: "alpha", metric: "bounce", from: "ok", to: "limit", episode: 1, notified: 2 }]);

    // What the banner of every screen of the project shows (its route is activeAlerts behind route()).
    expect((await activeAlerts(alpha)).active).toEqual([
      expect.objectContaining({ metric: "bounce", level: "limit", threshold: 0.04, window: expect.objectContaining({ window: "24h", rate: 0.6, count: 12, volume: 20 }) }),
    ]);
    expect((await activeAlerts(beta)).active).toEqual([]);

    // Two senders at once (two dashboards): each notification claimed and sent once.
    const [a, b] = await Promise.all([sendDueAlerts({ instance: "dash-a" }), sendDueAlerts({ instance: "dash-b" })]);
    expect(a.sent + b.sent).toBe(2);
    expect(await mailTo("ada@admins.test")).toEqual([expect.stringMatching(/^\[alpha\] Bounce rate above the limit: 60.0% over the last 24 hours$/)]);
    expect(await mailTo("bo@admins.test")).toHaveLength(1);
    expect(await mailTo("cy@admins.test")).toEqual([]); // an admin of beta only
    expect(await mailTo("dee@admins.test")).toEqual([]); // disabled
    expect(await mailTo("sam@support.test")).toEqual([]);

    // Checked again: nothing new, nothing sent again.
    expect((await evaluateAlerts()).changes).toEqual([]);
    expect(await sendDueAlerts()).toEqual({ sent: 0, failed: 0, retrying: 0, skipped: 0 });
    expect(await mailTo("ada@admins.test")).toHaveLength(1);

    // The alert emails came back through the stream into the index, but are not counted.
    await t.indexed();
    expect((await overviewCounts(alpha))["24h"]).toMatchObject({ sent: 20, bounced: 12, delivered: 8 });

    // History and audit.
    const history = await (await db()).select().from(alertEvents).where(eq(alertEvents.projectId, alpha.id));
    expect(history).toEqual([expect.objectContaining({ metric: "bounce", kind: "raised", level: "limit", previousLevel: "ok", window: "24h", threshold: 0.04 })]);
    const audited = await (await db()).select().from(auditLog).where(eq(auditLog.action, "alert.raised"));
    expect(audited.map((r) => r.project)).toEqual(["alpha"]);

    // A week later, plenty of delivered mail: recovered, told once.
    const later = new Date(Date.now() + 8 * 24 * HOUR);
    await recordSentMessages(
      Array.from({ length: 40 }, (_, i) => ({
        projectId: alpha.id,
        messageId: `later-${i}`,
        request: { from: { email: "shop@alpha.test" }, to: [{ email: `later${i}@gmail.com` }], subject: "Later", text: "Hi" },
        sentBy: null,
        idempotencyKey: null,
        source: "dashboard" as const,
        status: "delivered",
        createdAt: new Date(later.getTime() - HOUR),
      })),
    );
    expect((await evaluateAlerts({ now: later })).changes).toEqual([{ project: "alpha", metric: "bounce", from: "limit", to: "ok", episode: 2, notified: 2 }]);
    await sendDueAlerts();
    expect(await mailTo("ada@admins.test")).toEqual([expect.stringContaining("above the limit"), expect.stringMatching(/^\[alpha\] Bounce rate back to normal: 0.00% over the last 24 hours$/)]);
    expect(await mailTo("bo@admins.test")).toHaveLength(2);
    expect((await evaluateAlerts({ now: later })).changes).toEqual([]);
  });

  it("two checks racing on one database record the crossing once and send one email per admin", async () => {
    for (let i = 0; i < 12; i++) await t.send("beta", `bounce+r${i}@outlook.com`, `Race ${i}`);
    await t.indexed();
    // A second connection to the same database, as a second dashboard would have (PGlite: one process, one handle).
    const url = process.env.TEST_DATABASE_URL ? await currentDatabaseUrl() : null;
    const second = url ? await openDatabase({ url }) : null;
    const other: Db = second ? second.db : await db();
    try {
      const reports = await Promise.all([evaluateAlerts(), evaluateAlerts({ d: other })]);
      const changes = reports.flatMap((r) => r.changes).filter((c) => c.project === "beta");
      expect(changes).toEqual([{ project: "beta", metric: "bounce", from: "ok", to: "limit", episode: 1, notified: 3 }]);
      await Promise.all([sendDueAlerts({ instance: "a" }), sendDueAlerts({ d: other, instance: "b" })]);
    } finally {
      await second?.close();
    }
    for (const admin of ["ada@admins.test", "bo@admins.test", "cy@admins.test"]) {
      expect((await mailTo(admin)).filter((s) => s.startsWith("[beta]"))).toHaveLength(1);
    }
    const deliveries = await (await db()).select().from(alertDeliveries).where(eq(alertDeliveries.projectId, beta.id));
    expect(deliveries.map((d) => [d.target, d.status, d.attempts])).toEqual(
      expect.arrayContaining([["ada@admins.test", "sent", 1], ["bo@admins.test", "sent", 1], ["cy@admins.test", "sent", 1]]),
    );
  });
});

async function currentDatabaseUrl(): Promise<string> {
  const [row] = rowsOf<{ name: string }>(await (await db()).execute(sql`select current_database() as name`));
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}
