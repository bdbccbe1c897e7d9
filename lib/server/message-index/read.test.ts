import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settleAfterResponses } from "@/lib/server/http/after-response";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, dbKind } from "@/lib/server/db";
import { eventStreams, indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { ingestDelivery } from "@/lib/server/event-stream/ingest";
import type { Project } from "@/lib/server/gate/access";
import { registerProject } from "@/lib/server/projects";
import { json, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { clearMessageCache, readMessage } from "./read";
import { streamedTestProject } from "@/lib/test/project-db";

const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
let dispose: () => Promise<void>;
let service: TestServer;
let streamed: Project;
let quiet: Project;
/** What the fake service answers for msg_1, per project header; tests change it to see who answers. */
const status: Record<string, string> = {};
/** When set, the fake service holds its answer until the promise settles (a slow read). */
let holdAnswer: Promise<void> | null = null;

const reads = (project: string) => service.requests.filter((r) => r.url === "/v1/emails/msg_1" && r.headers["x-service-product"] === project).length;

beforeAll(async () => {
  service = await startHttpServer(async (req, res) => {
    // Only "streamed" gets an event stream: registering a project on a loopback service also
    // connects one in the background, and "quiet" must stay without.
    if (req.method === "POST" && req.url === "/v1/webhooks" && req.headers["x-service-product"] === "streamed") {
      const body = JSON.parse(req.body);
      return json(res, 201, { id: "wh_1", url: body.url, enabled: true, eventTypes: body.eventTypes, signingSecret: SECRET, createdAt: new Date().toISOString() });
    }
    const project = String(req.headers["x-service-product"]);
    if (req.url === "/v1/emails/msg_1" && status[project]) {
      const answer = status[project];
      if (holdAnswer) await holdAnswer;
      return json(res, 200, {
        id: "msg_1",
        from: "shop@acme.test",
        to: ["ada@example.com"],
        subject: "Your order",
        status: answer,
        direction: "outbound",
        createdAt: "2026-01-01T00:00:00Z",
        events: [{ type: "queued" }],
      });
    }
    return json(res, 404, { error: { message: "Message not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  streamed = await streamedTestProject("streamed");
  quiet = await registerProject({ externalId: "quiet" }, SYSTEM_ACTOR, { checkWithService: false });
});
afterAll(async () => {
  await dispose();
  await service.close();
});
beforeEach(async () => {
  // The previous case's index write (made after its answer) would otherwise land in this one.
  await settleAfterResponses();
  setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000" });
  clearMessageCache();
  status.streamed = "sent";
  status.quiet = "sent";
});

/** An event for msg_1, signed and taken in by the real ingest, as the service would deliver it. */
async function deliverEvent(type: string) {
  const id = `whd_${Math.random().toString(36).slice(2)}`;
  const at = new Date();
  const body = JSON.stringify({
    type,
    createdAt: at.toISOString(),
    data: { messageId: "msg_1", project: "streamed", direction: "outbound", from: "shop@acme.test", to: ["ada@example.com"], subject: "Your order", status: type, eventData: {} },
  });
  const headers = new Headers({
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(SECRET).sign(id, at, body),
  });
  expect((await ingestDelivery("streamed", body, headers)).status).toBe(204);
}

describe("readMessage", () => {
  it("asks the service on every read when the project has no event stream", async () => {
    expect(await (await db()).select().from(eventStreams).where(eq(eventStreams.projectId, quiet.id))).toEqual([]);
    const before = reads("quiet");
    await readMessage(quiet, "msg_1");
    status.quiet = "delivered";
    expect((await readMessage(quiet, "msg_1")).status).toBe("delivered");
    expect(reads("quiet") - before).toBe(2);
  });

  it("serves a repeated read from the cache while no event arrived", async () => {
    const before = reads("streamed");
    expect((await readMessage(streamed, "msg_1")).status).toBe("sent");
    await settleAfterResponses(); // the answer is cached once it is sent (the index's state is read then)
    status.streamed = "delivered"; // the service changed, but no event says so yet
    expect((await readMessage(streamed, "msg_1")).status).toBe("sent");
    expect(reads("streamed") - before).toBe(1);
  });

  it("asks the service again as soon as an event for the message arrives", async () => {
    const before = reads("streamed");
    await readMessage(streamed, "msg_1");
    await settleAfterResponses();
    status.streamed = "delivered";
    await deliverEvent("delivery");
    expect((await readMessage(streamed, "msg_1")).status).toBe("delivered");
    expect(reads("streamed") - before).toBe(2);
    // …and caches the new answer in turn.
    await settleAfterResponses();
    await readMessage(streamed, "msg_1");
    expect(reads("streamed") - before).toBe(2);
  });

  it("skips the cache when asked for a fresh read", async () => {
    await readMessage(streamed, "msg_1");
    status.streamed = "bounced";
    expect((await readMessage(streamed, "msg_1", { fresh: true })).status).toBe("bounced");
  });

  it("keeps projects apart: one project's cached message is not another's", async () => {
    await readMessage(streamed, "msg_1");
    await expect(readMessage({ ...streamed, id: quiet.id, externalId: "nobody" }, "msg_1")).rejects.toMatchObject({ status: 404 });
  });

  it("does not keep what a read got when an event arrived while it was under way", async () => {
    let release!: () => void;
    holdAnswer = new Promise((r) => (release = r));
    const slowRead = readMessage(streamed, "msg_1");
    await expect.poll(() => reads("streamed")).toBeGreaterThan(0);
    await deliverEvent("delivery"); // lands while the service's answer ("sent") is on its way
    release();
    holdAnswer = null;
    expect((await slowRead).status).toBe("sent");
    status.streamed = "delivered";
    const before = reads("streamed");
    expect((await readMessage(streamed, "msg_1")).status).toBe("delivered");
    expect(reads("streamed") - before).toBe(1);
  });

  it("with several instances on one Postgres, notices an event another instance took in", async () => {
    setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000", DATABASE_URL: "postgres://other-instances@db.test/dashboard" });
    const before = reads("streamed");
    await readMessage(streamed, "msg_1");
    await readMessage(streamed, "msg_1");
    expect(reads("streamed") - before).toBe(1); // still cached while nothing happened
    // Another instance stored an event: a row in the shared index, and no call into this process.
    await (await db()).insert(indexedEvents).values({ messageId: "msg_1", projectId: streamed.id, type: "delivery", occurredAt: new Date(), webhookId: `elsewhere_${Date.now()}` });
    status.streamed = "delivered";
    expect((await readMessage(streamed, "msg_1")).status).toBe("delivered");
    expect(reads("streamed") - before).toBe(2);
  });

  it("with several instances, notices a change another instance's re-read wrote, though no event announced it", async () => {
    setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000", DATABASE_URL: "postgres://other-instances@db.test/dashboard" });
    // Earlier cases may have indexed msg_1 under the other project: this one is "streamed"'s.
    await (await db()).delete(indexedMessages).where(eq(indexedMessages.id, "msg_1"));
    const before = reads("streamed");
    await readMessage(streamed, "msg_1");
    await readMessage(streamed, "msg_1");
    expect(reads("streamed") - before).toBe(1);
    const indexed = async () => (await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.status;
    await expect.poll(indexed).toBe("sent"); // this read's own index write has landed
    // Another instance read the message back (lib/server/message-index/reread-worker.ts) and wrote what it found.
    await (await db()).update(indexedMessages).set({ status: "delivered" }).where(eq(indexedMessages.id, "msg_1"));
    status.streamed = "delivered";
    expect((await readMessage(streamed, "msg_1")).status).toBe("delivered");
    expect(reads("streamed") - before).toBe(2);
  });

  /** msg_1 of `quiet` read twice from a fresh index row: when the row was written after each read. */
  async function indexedAtAfterTwoReads() {
    const d = await db();
    await d.delete(indexedMessages).where(eq(indexedMessages.id, "msg_1"));
    const indexedAt = async () => (await d.select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.updatedAt?.getTime();
    await readMessage(quiet, "msg_1");
    await settleAfterResponses();
    const first = await indexedAt();
    expect(first).toBeDefined();
    await new Promise((r) => setTimeout(r, 5));
    await readMessage(quiet, "msg_1");
    await settleAfterResponses();
    return { d, indexedAt, first: first!, second: await indexedAt() };
  }

  it("with several instances on one Postgres, writes a read's answer every time: another may have written an older one since", async () => {
    setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000", DATABASE_URL: "postgres://other-instances@db.test/dashboard" });
    const { first, second } = await indexedAtAfterTwoReads();
    expect(second).toBeGreaterThan(first);
  });

  it("writes nothing when a read brings back what it last wrote and the index still shows it", async () => {
    const { d, indexedAt, first, second } = await indexedAtAfterTwoReads();
    expect(second).toBe(first);
    // The row gone (retention, another instance): the same answer is written again.
    await d.delete(indexedMessages).where(eq(indexedMessages.id, "msg_1"));
    await readMessage(quiet, "msg_1");
    await settleAfterResponses();
    expect(await indexedAt()).toBeDefined();
    // The index changed under it (another instance's re-read): written again.
    await d.update(indexedMessages).set({ status: "delivered" }).where(eq(indexedMessages.id, "msg_1"));
    await readMessage(quiet, "msg_1");
    await settleAfterResponses();
    expect((await d.select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.status).toBe("sent");
    // A different answer: written.
    status.quiet = "delivered";
    await readMessage(quiet, "msg_1");
    await settleAfterResponses();
    expect((await d.select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.status).toBe("delivered");
  });

  it("writes again after an event for the message arrived, though the answer is the same", async () => {
    const d = await db();
    await d.delete(indexedMessages).where(eq(indexedMessages.id, "msg_1"));
    const checkedAt = async () => (await d.select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.checkedAt?.getTime();
    await readMessage(streamed, "msg_1", { fresh: true });
    await settleAfterResponses();
    const first = await checkedAt();
    await readMessage(streamed, "msg_1", { fresh: true });
    await settleAfterResponses();
    expect(await checkedAt()).toBe(first);
    await deliverEvent("sent");
    await new Promise((r) => setTimeout(r, 5));
    await readMessage(streamed, "msg_1", { fresh: true });
    await settleAfterResponses();
    expect(await checkedAt()).toBeGreaterThan(first!);
  });

  it("on PGlite, keeps the index's state between reads until the next write: a repeated read of a settled message asks the database nothing", async (ctx) => {
    // Kept only where every write is seen (one process on PGlite); a Postgres run has nothing to check.
    if ((await dbKind()) !== "pglite") return ctx.skip();
    const engine = ((await db()) as unknown as { $client: { execProtocolRawSync: (...args: unknown[]) => unknown } }).$client;
    const exchange = engine.execProtocolRawSync;
    let exchanges = 0;
    engine.execProtocolRawSync = (...args) => (exchanges++, exchange.apply(engine, args));
    const d = await db();
    const read = async () => {
      expect((await readMessage(streamed, "msg_1", { fresh: true })).status).toBe("sent");
      await settleAfterResponses();
    };
    try {
      await read(); // written into the index
      await read(); // the state after that write is read, and kept
      const before = exchanges;
      await read();
      await read();
      expect(exchanges - before).toBe(0);
      // A write, whoever made it (here: another piece of work changing the status), ends what was kept:
      // the next read sees the index no longer shows its answer, and writes it again.
      await d.update(indexedMessages).set({ status: "delivered" }).where(eq(indexedMessages.id, "msg_1"));
      await read();
      expect((await d.select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.status).toBe("sent");
      // An event for the message: the next read is cached anew with the event's sequence, not the kept one.
      await deliverEvent("delivered");
      status.streamed = "delivered";
      await readMessage(streamed, "msg_1", { fresh: true });
      await settleAfterResponses();
      const reads0 = reads("streamed");
      expect((await readMessage(streamed, "msg_1")).status).toBe("delivered");
      expect(reads("streamed")).toBe(reads0);
    } finally {
      engine.execProtocolRawSync = exchange;
    }
  });

  it("writes a message it read into the index, after answering", async () => {
    await (await db()).delete(indexedMessages).where(eq(indexedMessages.id, "msg_1"));
    status.quiet = "delivered";
    await readMessage(quiet, "msg_1");
    await expect
      .poll(async () => (await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "msg_1")))[0]?.status)
      .toBe("delivered");
  });

  it("answers a read from the service without waiting for the index: one process reads the index's state after the response", async () => {
    // The database held by another piece of work (on PGlite, one transaction holds it all):
    // the answer must not wait for it, since nothing in the answer comes from the index.
    status.streamed = "delivered";
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const inside = new Promise<void>((resolve) => (holding = resolve));
    const busy = (await db()).transaction(async () => {
      holding();
      await held;
    });
    await inside;
    try {
      const answer = await Promise.race([
        readMessage(streamed, "msg_1", { fresh: true }),
        new Promise((resolve) => setTimeout(() => resolve("waited for the index"), 3_000)),
      ]);
      expect(answer).toMatchObject({ id: "msg_1", status: "delivered" });
    } finally {
      release();
      await busy;
      await settleAfterResponses();
    }
    // Once the index answers, the answer is cached as before.
    const before = reads("streamed");
    await readMessage(streamed, "msg_1");
    expect(reads("streamed")).toBe(before);
  });
});
