import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { EMPTY_HEALTH } from "@/lib/server/event-stream/health";
import { ingestDelivery } from "@/lib/server/event-stream/ingest";
import { decideMode } from "@/lib/server/event-stream/mode";
import { getStreamStatus } from "@/lib/server/event-stream/status";
import { recordSentMessage } from "@/lib/server/message-index/record";
import { overviewCounts } from "@/lib/server/overview";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { FOREIGN_SECRET, foreignMessage, startForeignService, type ForeignService } from "@/lib/test/foreign-service";
import { startEventWork, stopEventWork } from "./background";
import { reconcileOnce } from "./reconciler";
import { drainRereads, resetRereadWorkerMemory } from "@/lib/server/message-index/reread-worker";
import { streamedTestProject } from "@/lib/test/project-db";

let dispose: () => Promise<void>;
let foreign: ForeignService;
let polled: Project; // no event stream
let streamed: Project; // an event stream that may or may not work
let n = 0;

const env = () => setTestEnv({ SERVICE_URL: foreign.url, PUBLIC_URL: "http://dash.test:3000", REREAD_COALESCE_MS: "1", STREAM_SILENT_AFTER_S: "30" });

beforeAll(async () => {
  foreign = await startForeignService();
  foreign.refuseWebhooks.add("polled");
  env();
  ({ dispose } = await useTestDb());
  polled = await registerProject({ externalId: "polled" }, SYSTEM_ACTOR, { checkWithService: false });
  streamed = await streamedTestProject("streamed");
});
afterAll(async () => {
  await stopEventWork();
  await dispose();
  await foreign.close();
});
beforeEach(async () => {
  env();
  resetRereadWorkerMemory();
  await (await db()).delete(messageRereads);
});

/** A message the dashboard sent `ageMs` ago (the index says queued; the service knows better). */
async function sent(project: Project, id: string, ageMs: number, serviceStatus: string | null = "Delivered") {
  await recordSentMessage({
    projectId: project.id,
    messageId: id,
    request: { from: { email: "shop@acme.test" }, to: [{ email: `${id}@example.com` }], subject: `About ${id}`, text: "hi" },
    sentBy: null,
    idempotencyKey: null,
    source: "dashboard",
    createdAt: new Date(Date.now() - ageMs),
  });
  if (serviceStatus) foreign.messages.set(id, foreignMessage(id, serviceStatus, { to: [`${id}@example.com`] }));
}
const statusOf = async (id: string) => (await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, id)))[0]?.status;
const reportFor = (report: Awaited<ReturnType<typeof reconcileOnce>>, project: Project) => report!.find((r) => r.projectId === project.id)!;

function signedDelivery(secret: string, body: string, at = new Date()) {
  const id = `evt_${++n}`;
  return new Headers({ "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) });
}

describe("decideMode", () => {
  const connectedAt = new Date("2026-01-01T00:00:00Z");
  const at = (s: number) => new Date(connectedAt.getTime() + s * 1000);
  it("is live while deliveries verify and are usable", () => {
    expect(decideMode({ connectedAt, health: EMPTY_HEALTH, silentSince: null })).toMatchObject({ mode: "live", code: "waiting" });
    expect(decideMode({ connectedAt, health: { ...EMPTY_HEALTH, lastAcceptedAt: at(10) }, silentSince: null })).toMatchObject({ mode: "live", code: "live" });
    // A refusal long ago, deliveries accepted since: live.
    expect(decideMode({ connectedAt, health: { ...EMPTY_HEALTH, lastRefusedAt: at(5), lastAcceptedAt: at(10) }, silentSince: null }).mode).toBe("live");
  });
  it("polls when not connected, when refused or unusable since the last good delivery, and when silent", () => {
    expect(decideMode({ connectedAt: null, health: EMPTY_HEALTH, silentSince: null })).toMatchObject({ mode: "polling", code: "not_connected" });
    expect(decideMode({ connectedAt, health: { ...EMPTY_HEALTH, lastRefusedAt: at(10), lastReason: "bad signature" }, silentSince: null })).toMatchObject({ mode: "polling", code: "refused", reason: "bad signature" });
    expect(decideMode({ connectedAt, health: { ...EMPTY_HEALTH, lastAcceptedAt: at(5), lastUnusableAt: at(10) }, silentSince: null })).toMatchObject({ mode: "polling", code: "unusable" });
    expect(decideMode({ connectedAt, health: { ...EMPTY_HEALTH, lastAcceptedAt: at(5) }, silentSince: at(6) })).toMatchObject({ mode: "polling", code: "silent", since: at(6) });
  });
});

describe("the reconciler", () => {
  it("in polling mode reads the unsettled messages, newest first, and statuses, search and the overview converge", async () => {
    await sent(polled, "p-fresh", 5_000);
    await sent(polled, "p-bounced", 8_000, "Bounced");
    await sent(polled, "p-still", 3_000, "Sent");
    await sent(polled, "p-old", 72 * 3_600_000); // older than RECONCILE_MAX_AGE_H
    await sent(polled, "p-scheduled", 1_000);
    await (await db()).update(indexedMessages).set({ scheduledAt: new Date(Date.now() + 3_600_000) }).where(eq(indexedMessages.id, "p-scheduled"));
    await sent(polled, "p-final", 5_000);
    await (await db()).update(indexedMessages).set({ status: "delivered" }).where(eq(indexedMessages.id, "p-final"));
    await sent(polled, "p-quiet", 300_000);
    await (await db()).update(indexedMessages).set({ status: "sent", lastEventAt: new Date(Date.now() - 200_000) }).where(eq(indexedMessages.id, "p-quiet"));

    const report = reportFor(await reconcileOnce(), polled);
    expect(report.mode).toMatchObject({ mode: "polling", code: "not_connected" });
    const queued = (await (await db()).select().from(messageRereads).where(eq(messageRereads.projectId, polled.id))).map((r) => r.messageId).sort();
    expect(queued).toEqual(["p-bounced", "p-fresh", "p-still"]);
    await drainRereads();
    expect(await statusOf("p-fresh")).toBe("delivered");
    expect(await statusOf("p-bounced")).toBe("bounced");
    expect(await statusOf("p-still")).toBe("sent");
    expect(await statusOf("p-old")).toBe("queued");
    const counts = (await overviewCounts(polled))["24h"];
    expect(counts).toMatchObject({ delivered: 2, bounced: 1 }); // p-fresh and p-final; p-bounced

    // Read a moment ago: not again before RECONCILE_POLL_S; the one still moving is read again after.
    expect(reportFor(await reconcileOnce(), polled).queued).toBe(0);
    await (await db()).update(indexedMessages).set({ checkedAt: new Date(Date.now() - 60_000) }).where(eq(indexedMessages.projectId, polled.id));
    foreign.messages.set("p-still", foreignMessage("p-still", "Delivered"));
    expect(reportFor(await reconcileOnce(), polled).queued).toBe(1);
    await drainRereads();
    expect(await statusOf("p-still")).toBe("delivered");
  });

  it("in live mode leaves unsettled messages to the stream, and re-reads only those stuck for long", async () => {
    const body = JSON.stringify({ type: "delivered", data: { email_id: "s-live" } });
    foreign.messages.set("s-live", foreignMessage("s-live", "Delivered"));
    expect((await ingestDelivery("streamed", body, signedDelivery(FOREIGN_SECRET, body))).status).toBe(204);
    await drainRereads();
    await sent(streamed, "s-recent", 5_000);
    await sent(streamed, "s-stuck", 30 * 60_000);
    // The stream delivered for both since they were sent, so it is not silent.
    for (const id of ["s-recent", "s-stuck"]) {
      const b = JSON.stringify({ type: "queued", data: { email_id: id } });
      await ingestDelivery("streamed", b, signedDelivery(FOREIGN_SECRET, b));
    }
    await (await db()).delete(messageRereads);
    await (await db()).update(indexedMessages).set({ status: "sent", checkedAt: null }).where(eq(indexedMessages.id, "s-stuck"));
    const report = reportFor(await reconcileOnce(), streamed);
    expect(report.mode).toMatchObject({ mode: "live", code: "live" });
    const queued = (await (await db()).select().from(messageRereads).where(eq(messageRereads.projectId, streamed.id))).map((r) => r.messageId);
    expect(queued).toEqual(["s-stuck"]);
  });

  it("a connected stream that stays silent for a sent message switches to polling, and back to live when deliveries come", async () => {
    await sent(streamed, "s-silent", 45_000);
    // The stream was connected well before, and its last delivery came before this send.
    await (await db()).execute(sql`update event_streams set created_at = now() - interval '10 minutes' where project_id = ${streamed.id}`);
    await (await db()).execute(sql`update event_stream_health set last_accepted_at = now() - interval '60 seconds' where project_id = ${streamed.id}`);
    let status = await getStreamStatus(streamed);
    expect(status).toMatchObject({ mode: "polling", code: "silent" });
    expect(reportFor(await reconcileOnce(), streamed).queued).toBeGreaterThan(0);
    await drainRereads();
    expect(await statusOf("s-silent")).toBe("delivered");
    const body = JSON.stringify({ type: "delivered", data: { email_id: "s-silent" } });
    await ingestDelivery("streamed", body, signedDelivery(FOREIGN_SECRET, body));
    status = await getStreamStatus(streamed);
    expect(status).toMatchObject({ mode: "live", code: "live", health: { acceptedCount: expect.any(Number) } });
  });

  it("a stranger's refused signatures are counted but leave the mode live; the project's own late deliveries put it in polling mode, with the reason", async () => {
    const body = JSON.stringify({ type: "delivered", data: { email_id: "s-refused" } });
    const wrong = Buffer.from("a-secret-the-dashboard-never-saw!").toString("base64");
    expect((await ingestDelivery("streamed", body, signedDelivery(wrong, body))).status).toBe(401);
    let status = await getStreamStatus(streamed);
    expect(status.mode).toBe("live");
    expect(status.health.refusedCount).toBeGreaterThan(0);
    expect(status.health.lastReason).toBe("the signature does not match the signing secret");
    // Signed with the project's secret but 20 minutes late: the service's clock (or a replay) is off.
    expect((await ingestDelivery("streamed", body, signedDelivery(FOREIGN_SECRET, body, new Date(Date.now() - 20 * 60_000)))).status).toBe(401);
    status = await getStreamStatus(streamed);
    expect(status).toMatchObject({ mode: "polling", code: "refused", reason: expect.stringMatching(/min old/) });
    expect((await ingestDelivery("streamed", body, signedDelivery(FOREIGN_SECRET, body))).status).toBe(204);
    expect((await getStreamStatus(streamed)).mode).toBe("live");
  });

  it("runs in the background: a polled project's new message converges without anyone opening it, and stops cleanly", async () => {
    await sent(polled, "p-background", 1_000, "Sent");
    startEventWork({ reconcileEveryMs: 100, healthFlushMs: 100 });
    try {
      await expect.poll(() => statusOf("p-background"), { timeout: 20_000 }).toBe("sent");
      await expect.poll(() => foreign.reads("p-background"), { timeout: 20_000 }).toBeGreaterThan(0);
      foreign.messages.set("p-background", foreignMessage("p-background", "Delivered"));
      // Polling reads it again once RECONCILE_POLL_S has passed since the last read.
      await (await db()).update(indexedMessages).set({ checkedAt: new Date(Date.now() - 60_000) }).where(eq(indexedMessages.id, "p-background"));
      await expect.poll(() => statusOf("p-background"), { timeout: 20_000 }).toBe("delivered");
    } finally {
      await stopEventWork();
    }
  });
});
