import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../contract/db-rows";
import { EVENT_TYPES } from "../../contract/wire";
import { demoHistories, messageEvents, messages, webhookDeliveries } from "../db/schema";
import { syncTemplates } from "../lib/template-files";
import { createTestService, type TestService } from "../test/harness";
import { jobHandlers } from "../worker/handlers";
import { startWorker, type Worker } from "../worker/queue";
import { addVerifiedDomain, waitFor } from "../test/sending-fixtures";
import { PROFILES, type HistoryProfile } from "./history";
import { DEMO_REPLAY_JOB, REPLAY_BATCH_MESSAGES, REPLAY_CONCURRENCY, REPLAY_EVENTS_PER_DELIVERY, demoReplayJobHandlers } from "./replay";
import { startSignedReceiver, type Delivery, type SignedReceiver } from "./test-receiver";
import { seedHistory } from "./write";

/** A small month (about a hundred messages), enough to see the hand-over's rules at work. */
const SMALL: HistoryProfile = { ...PROFILES.staging, people: 50, perDay: 9, replies: 2, questions: 1, scheduled: 2 };

async function serviceWithHistory(profile: HistoryProfile, days: number) {
  // The receivers of these tests listen on loopback, which only ALLOW_PRIVATE lets through.
  const svc = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
  await syncTemplates(svc.db);
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
  const plan = await seedHistory(svc.db, { id: svc.alpha.id, externalId: "alpha", domain: "alpha.test", fromName: "Alpha" }, { now: new Date(), profile, days });
  return { svc, plan };
}

async function connect(svc: TestService, receiver: SignedReceiver, eventTypes: readonly string[] = EVENT_TYPES) {
  const res = await svc.call("POST", "/v1/webhooks", { body: { url: receiver.url, eventTypes } });
  expect(res.status).toBe(201);
  const hook = await res.json();
  receiver.setSecret(hook.signingSecret);
  return hook as { id: string };
}

const historyOf = async (svc: TestService) => (await svc.db.select().from(demoHistories).where(eq(demoHistories.projectId, svc.alpha.id)))[0];

/** The project's events up to the cut, as (message, type, time) keys. */
async function pastEvents(svc: TestService, cutoff: number) {
  const rows = await svc.db.select({ messageId: messageEvents.messageId, type: messageEvents.type, createdAt: messageEvents.createdAt })
    .from(messageEvents).innerJoin(messages, eq(messages.id, messageEvents.messageId))
    .where(and(eq(messages.projectId, svc.alpha.id), lte(messageEvents.id, cutoff)));
  return rows.map((r) => `${r.messageId} ${r.type} ${r.createdAt.toISOString()}`).sort();
}

describe("the demo history's hand-over to the first endpoint", () => {
  let svc: TestService;
  let first: SignedReceiver;
  let second: SignedReceiver;
  let hook: { id: string };
  beforeAll(async () => {
    ({ svc } = await serviceWithHistory(SMALL, 12));
    // Times with microseconds (as `now()` stores them): the last message of the first batch and
    // the next one in the same millisecond. The cursor, a Date, holds milliseconds only; the
    // next one must not be skipped.
    const [last, next] = await svc.db.select({ id: messages.id }).from(messages).where(eq(messages.projectId, svc.alpha.id))
      .orderBy(sql`${messages.createdAt} desc`).limit(2).offset(REPLAY_BATCH_MESSAGES - 1);
    await svc.db.execute(sql`update messages set created_at = date_trunc('milliseconds', created_at) + interval '456 microseconds' where id = ${last.id}`);
    await svc.db.execute(sql`update messages set created_at = (select created_at from messages where id = ${last.id}) - interval '333 microseconds' where id = ${next.id}`);
    first = await startSignedReceiver({ delayMs: 5 });
    second = await startSignedReceiver();
    hook = await connect(svc, first);
    await waitFor(async () => (await historyOf(svc))?.replayFinishedAt, "the hand-over to finish", 60_000);
  }, 90_000);
  afterAll(async () => {
    await svc.close();
    await first.close();
    await second.close();
  });

  it("delivers every event recorded before the endpoint once, signed, with its original time", async () => {
    const state = await historyOf(svc);
    expect(state.replayWebhookId).toBe(hook.id);
    const expected = await pastEvents(svc, state.replayCutoffEventId!);
    expect(expected.length).toBeGreaterThan(300);
    expect(state.replayDeliveries).toBe(expected.length);
    await waitFor(async () => first.deliveries.length >= expected.length, "every delivery to arrive");
    expect(first.rejected).toEqual([]);
    expect(new Set(first.deliveries.map((d) => d.id)).size).toBe(first.deliveries.length);
    // Each message's past in one request, its events in the order they happened; a request
    // carries several messages' pasts, never more events than the dashboard takes.
    const requestOf = (d: Delivery) => d.id.split("#")[0];
    for (const messageId of new Set(expected.map((key) => key.split(" ")[0]))) {
      expect(new Set(first.deliveries.filter((d) => d.payload.data.messageId === messageId).map(requestOf)).size, messageId).toBe(1);
    }
    const perRequest = new Map<string, number>();
    for (const d of first.deliveries) perRequest.set(requestOf(d), (perRequest.get(requestOf(d)) ?? 0) + 1);
    expect(perRequest.size).toBe(first.requests);
    expect(Math.max(...perRequest.values())).toBeLessThanOrEqual(REPLAY_EVENTS_PER_DELIVERY);
    expect(first.requests, "requests at least half full on average").toBeLessThanOrEqual(Math.ceil(expected.length / (REPLAY_EVENTS_PER_DELIVERY / 2)));
    for (const messageId of new Set(first.deliveries.map((d) => d.payload.data.messageId))) {
      const times = first.deliveries.filter((d) => d.payload.data.messageId === messageId).map((d) => Date.parse(d.payload.createdAt));
      expect(times, messageId).toEqual([...times].sort((a, b) => a - b));
    }
    const received = first.deliveries.map((d) => `${d.payload.data.messageId} ${d.payload.type} ${d.payload.createdAt}`).sort();
    expect(received).toEqual(expected);
    for (const d of first.deliveries) expect(d.payload.data.project).toBe("alpha");
    // The status each event left: a bounce says bounced; an open leaves the status the events
    // before it in time left — delivered, or complained when the recipient complained earlier
    // (the history is generated up to now, so whether one did depends on the day it runs).
    for (const d of first.deliveries.filter((x) => x.payload.type === "bounce")) expect(d.payload.data.status).toBe("bounced");
    const opens = first.deliveries.filter((x) => x.payload.type === "open");
    expect(opens.length).toBeGreaterThan(0);
    for (const d of opens) {
      const complainedBefore = first.deliveries.some(
        (x) => x.payload.data.messageId === d.payload.data.messageId && x.payload.type === "complaint" && Date.parse(x.payload.createdAt) < Date.parse(d.payload.createdAt),
      );
      expect(d.payload.data.status).toBe(complainedBefore ? "complained" : "delivered");
    }
    expect(first.deliveries.filter((d) => d.payload.type === "click").every((d) => typeof d.payload.data.eventData.link === "string")).toBe(true);
  });

  it("hands over the newest messages first, with a bounded number of requests in flight", async () => {
    // In the hand-over's order: the time in milliseconds (as a Date holds it), then the id. Two
    // messages of the same millisecond (the pair beforeAll made) go by their ids, whose order is
    // random when the seed wrote both in one millisecond: ordered by microseconds, this test
    // picked the other one of the pair in about every other run.
    const newest = await svc.db.select({ id: messages.id }).from(messages).where(eq(messages.projectId, svc.alpha.id))
      .orderBy(sql`date_trunc('milliseconds', ${messages.createdAt}) desc, ${messages.id} desc`).limit(REPLAY_BATCH_MESSAGES);
    const arrivedFirst = [...new Set(first.deliveries.map((d) => d.payload.data.messageId))].slice(0, REPLAY_BATCH_MESSAGES);
    expect(arrivedFirst.sort()).toEqual(newest.map((m) => m.id).sort());
    expect(first.maxInFlight).toBeLessThanOrEqual(REPLAY_CONCURRENCY);
    expect(first.maxInFlight).toBeGreaterThan(1);
  });

  it("gives a second endpoint only what happens after it, and a live message reaches each endpoint once", async () => {
    const before = first.deliveries.length;
    const other = await connect(svc, second);
    expect((await historyOf(svc)).replayWebhookId).toBe(hook.id);
    const sent = await svc.call("POST", "/v1/emails", { body: { from: { email: "app@alpha.test" }, to: [{ email: "delivered@example.com" }], subject: "Live", text: "now" } });
    const { id } = await sent.json();
    const arrived = (r: SignedReceiver) => r.deliveries.some((d) => d.payload.data.messageId === id && d.payload.type === "delivery");
    await waitFor(async () => arrived(first) && arrived(second), "the live delivery at both endpoints");
    // The message's other events may still be on their way (deliveries run concurrently): compare once none is pending.
    await waitFor(async () => {
      const pending = await svc.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.state, "pending"), inArray(webhookDeliveries.webhookId, [hook.id, other.id])));
      return Number(pending[0].n) === 0;
    }, "every live delivery to be made");
    expect(second.deliveries.every((d) => d.payload.data.messageId === id)).toBe(true);
    const live = first.deliveries.slice(before);
    expect(live.every((d) => d.payload.data.messageId === id)).toBe(true);
    // Live deliveries run concurrently, so they may arrive in any order.
    expect(live.map((d) => d.payload.type).sort()).toEqual(second.deliveries.map((d) => d.payload.type).sort());
    expect(new Set(live.map((d) => d.payload.type)).size).toBe(live.length);
    const rows = await svc.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, other.id));
    expect(Number(rows[0].n)).toBe(second.deliveries.length);
  });

  it("runs a batch once: the job of a batch already done changes nothing", async () => {
    const state = await historyOf(svc);
    const count = first.deliveries.length;
    const rows = await svc.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
    await demoReplayJobHandlers[DEMO_REPLAY_JOB](svc.deps, { projectId: svc.alpha.id, batch: 0 }, 1);
    await demoReplayJobHandlers[DEMO_REPLAY_JOB](svc.deps, { projectId: svc.alpha.id, batch: state.replayBatch }, 1);
    expect(await historyOf(svc)).toEqual(state);
    expect(await svc.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries)).toEqual(rows);
    expect(first.deliveries.length).toBe(count);
  });
});

describe("who gets the past", () => {
  it("the oldest endpoint still there when the hand-over starts: two made at once, the first deleted", async () => {
    const { svc } = await serviceWithHistory(SMALL, 2);
    const receivers = [await startSignedReceiver(), await startSignedReceiver()];
    let worker: Worker | null = null;
    try {
      await svc.worker!.stop();
      const [lost, kept] = [await connect(svc, receivers[0]), await connect(svc, receivers[1])];
      expect((await svc.call("DELETE", `/v1/webhooks/${lost.id}`, { project: null })).status).toBe(204);
      worker = startWorker(svc.deps, jobHandlers);
      await waitFor(async () => (await historyOf(svc))?.replayFinishedAt, "the hand-over to finish", 60_000);
      const state = await historyOf(svc);
      expect(state.replayWebhookId).toBe(kept.id);
      expect(state.replayCandidates.map((c) => c.webhookId)).toEqual([lost.id, kept.id]);
      const expected = await pastEvents(svc, state.replayCutoffEventId!);
      await waitFor(async () => receivers[1].deliveries.length >= expected.length, "every delivery to arrive");
      expect(receivers[1].deliveries.map((d) => `${d.payload.data.messageId} ${d.payload.type} ${d.payload.createdAt}`).sort()).toEqual(expected);
      expect(receivers[0].deliveries).toEqual([]);
    } finally {
      await worker?.stop();
      await svc.close();
      for (const r of receivers) await r.close();
    }
  });

  it("nothing of the past for the first endpoint of a project without a history", async () => {
    const { svc } = await serviceWithHistory(SMALL, 3);
    try {
      await svc.worker!.stop();
      await addVerifiedDomain(svc.db, svc.beta.id, "beta.test");
      const sent = await svc.call("POST", "/v1/emails", { project: "beta", body: { from: { email: "app@beta.test" }, to: [{ email: "a@example.com" }], subject: "x", text: "x" } });
      expect(sent.status).toBe(202);
      const receiver = await startSignedReceiver();
      const res = await svc.call("POST", "/v1/webhooks", { project: "beta", body: { url: receiver.url, eventTypes: EVENT_TYPES } });
      expect(res.status).toBe(201);
      await receiver.close();
      const jobs = rowsOf<{ n: number }>(await svc.db.execute(sql`select count(*)::int as n from jobs where kind = ${DEMO_REPLAY_JOB}`));
      expect(Number(jobs[0].n)).toBe(0);
      expect(await svc.db.select().from(webhookDeliveries)).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});

describe("the hand-over beside live mail", () => {
  let svc: TestService;
  let receiver: SignedReceiver;
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it("lets live events through while the history is still being delivered", async () => {
    ({ svc } = await serviceWithHistory({ ...SMALL, perDay: 20, people: 100 }, 14));
    receiver = await startSignedReceiver({ delayMs: 10 });
    const hook = await connect(svc, receiver);
    const isLive = (messageId: string, id: string) => messageId === id;
    await waitFor(async () => receiver.deliveries.length >= 100, "the first hundred past events");
    const pastAtSend = new Set(receiver.deliveries.map((d) => d.payload.data.messageId)).size;
    const sent = await svc.call("POST", "/v1/emails", { body: { from: { email: "app@alpha.test" }, to: [{ email: "delivered@example.com" }], subject: "Live", text: "now" } });
    const { id } = await sent.json();
    await waitFor(async () => receiver.deliveries.some((d) => isLive(d.payload.data.messageId, id) && d.payload.type === "delivery"), "the live delivery", 60_000);
    const pastSoFar = receiver.deliveries.filter((d) => !isLive(d.payload.data.messageId, id)).length;
    const state = await historyOf(svc);
    expect(state.replayWebhookId).toBe(hook.id);
    // The live message went through while the past was still coming, behind a few runs at most:
    // the one under way when it was sent, and one for each step of its lifecycle (measured: two).
    const total = (await pastEvents(svc, state.replayCutoffEventId!)).length;
    expect(total).toBeGreaterThan(1200);
    const messagesMeanwhile = new Set(receiver.deliveries.filter((d) => !isLive(d.payload.data.messageId, id)).map((d) => d.payload.data.messageId)).size - pastAtSend;
    expect(pastSoFar).toBeLessThan(total);
    expect(messagesMeanwhile).toBeLessThanOrEqual(3 * REPLAY_BATCH_MESSAGES);
    await waitFor(async () => (await historyOf(svc)).replayFinishedAt, "the hand-over to finish", 120_000);
    expect(receiver.deliveries.filter((d) => !isLive(d.payload.data.messageId, id)).length).toBe(total);
  }, 180_000);
});
