import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { messageRereads, rereadPauses } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { ingestDelivery } from "@/lib/server/event-stream/ingest";
import { searchMessages } from "@/lib/server/messages/search";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { FOREIGN_SECRET, foreignMessage, startForeignService, type ForeignService } from "@/lib/test/foreign-service";
import { drainRereads, resetRereadWorkerMemory, runRereadTick } from "./reread-worker";
import { messageListQuery } from "@/lib/schemas/messages-index";

let dispose: () => Promise<void>;
let foreign: ForeignService;
let project: Project;
let n = 0;

const env = (extra: Record<string, string> = {}) =>
  setTestEnv({ SERVICE_URL: foreign.url, PUBLIC_URL: "http://dash.test:3000", REREAD_COALESCE_MS: "1", SERVICE_TIMEOUT_MS: "8000", ...extra });

beforeAll(async () => {
  foreign = await startForeignService();
  env();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "foreign" }, SYSTEM_ACTOR, { checkWithService: false });
  await connectEventStream(project);
});
afterAll(async () => {
  await dispose();
  await foreign.close();
});
beforeEach(async () => {
  env();
  resetRereadWorkerMemory();
  foreign.rateLimit(0);
  foreign.hold(null);
  foreign.answerUnknown(null);
  foreign.refuseReads(false);
  await (await db()).delete(messageRereads);
  await (await db()).delete(rereadPauses);
});

/** A delivery as the foreign service would send it: its own shape, svix headers, its own secret. */
async function deliver(type: string, emailId: string) {
  const id = `evt_${++n}`;
  const at = new Date();
  const body = JSON.stringify({ type, created_at: at.toISOString(), data: { email_id: emailId } });
  const headers = new Headers({ "svix-id": id, "svix-timestamp": String(Math.floor(at.getTime() / 1000)), "svix-signature": new Webhook(FOREIGN_SECRET).sign(id, at, body) });
  expect((await ingestDelivery("foreign", body, headers)).status).toBe(204);
}

const row = async (id: string) => (await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, id)))[0];
const queued = async (id: string) => (await (await db()).select().from(messageRereads).where(eq(messageRereads.messageId, id)))[0];

describe("re-reads", () => {
  it("a burst of events for one message costs one read, and the service's answer is what the index keeps", async () => {
    foreign.messages.set("em-burst", foreignMessage("em-burst", "Delivered", { subject: "Burst", to: ["burst@example.com"] }));
    for (const type of ["email.sent", "email.delivered", "email.opened", "email.clicked"]) await deliver(type, "em-burst");
    // Provisional: the payload named only the id and the event.
    expect(await row("em-burst")).toMatchObject({ status: "delivered", subject: null, to: [] });
    await drainRereads();
    expect(foreign.reads("em-burst")).toBe(1);
    const truth = (await row("em-burst"))!;
    expect(truth).toMatchObject({ status: "delivered", subject: "Burst", to: ["burst@example.com"], from: "Shop <shop@acme.test>" });
    expect(truth.checkedAt).not.toBeNull();
    expect(await queued("em-burst")).toBeUndefined();
    // The retrieved events are indexed beside the stream's, read into the interface's words.
    const read = await (await db()).select().from(indexedEvents).where(and(eq(indexedEvents.messageId, "em-burst"), eq(indexedEvents.origin, "read")));
    expect(read.map((e) => e.type).sort()).toEqual(["delivery", "sent"]);
    // …and search finds it by the recipient only the service named.
    expect((await searchMessages(project.id, messageListQuery.parse({ q: "burst@example.com" }))).data.map((m) => m.id)).toEqual(["em-burst"]);
  });

  it("a foreign status word the vocabulary knows is indexed in the dashboard's words; an unknown one as it is", async () => {
    foreign.messages.set("em-words", foreignMessage("em-words", "Hard_Bounced"));
    foreign.messages.set("em-odd", foreignMessage("em-odd", "Archived"));
    await deliver("email.bounced", "em-words");
    await deliver("email.something", "em-odd");
    await drainRereads();
    expect((await row("em-words"))!.status).toBe("bounced");
    expect((await row("em-odd"))!.status).toBe("archived");
  });

  it("an event that arrives while the read is under way gets a second read", async () => {
    foreign.messages.set("em-race", foreignMessage("em-race", "Sent"));
    await deliver("email.sent", "em-race");
    let release!: () => void;
    foreign.hold(new Promise<void>((r) => (release = r)));
    const draining = drainRereads();
    await expect.poll(() => foreign.reads("em-race")).toBe(1);
    foreign.messages.set("em-race", foreignMessage("em-race", "Delivered"));
    await deliver("email.delivered", "em-race"); // lands while the first answer ("Sent") is held
    release();
    foreign.hold(null);
    await draining;
    await drainRereads();
    expect(foreign.reads("em-race")).toBe(2);
    expect((await row("em-race"))!.status).toBe("delivered");
    expect(await queued("em-race")).toBeUndefined();
  });

  it("starts at most REREAD_RATE_PER_S reads a second per project, and at most REREAD_CONCURRENCY at once", async () => {
    env({ REREAD_RATE_PER_S: "2", REREAD_CONCURRENCY: "1" });
    resetRereadWorkerMemory();
    for (let i = 0; i < 4; i++) {
      foreign.messages.set(`em-rate-${i}`, foreignMessage(`em-rate-${i}`, "Delivered"));
      await deliver("email.delivered", `em-rate-${i}`);
    }
    expect(await runRereadTick()).toBe(1); // concurrency 1, though 2 tokens
    await drainRereads();
    for (let i = 0; i < 4; i++) expect(foreign.reads(`em-rate-${i}`)).toBe(1);
    expect(foreign.maxConcurrentReads()).toBe(1);

    env({ REREAD_RATE_PER_S: "2", REREAD_CONCURRENCY: "10" });
    resetRereadWorkerMemory();
    for (let i = 0; i < 4; i++) await deliver("email.opened", `em-rate-${i}`);
    expect(await runRereadTick()).toBe(2); // two tokens
    await drainRereads();
  });

  it("a 429 with a long Retry-After pauses the project's reads for that long, for every instance", async () => {
    foreign.messages.set("em-429", foreignMessage("em-429", "Delivered"));
    await deliver("email.delivered", "em-429");
    foreign.rateLimit(1, "30");
    // The pause is measured from before the read, not from whenever a busy machine gets to look at it.
    const before = Date.now();
    await drainRereads();
    expect(foreign.reads("em-429")).toBe(1);
    const [pause] = await (await db()).select().from(rereadPauses).where(eq(rereadPauses.projectId, project.id));
    expect(pause.until.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    // The read is kept, not counted as a failure, and not tried while the pause lasts.
    expect(await queued("em-429")).toMatchObject({ attempts: 0, claimedBy: null, lastError: expect.stringMatching(/rate limiting/) });
    expect(await runRereadTick()).toBe(0);
    // Thirty seconds later…
    await (await db()).update(rereadPauses).set({ until: new Date(Date.now() - 1) });
    await drainRereads();
    expect(foreign.reads("em-429")).toBe(2);
    expect((await row("em-429"))!.status).toBe("delivered");
    expect(await (await db()).select().from(rereadPauses)).toEqual([]);
  });

  it("a short Retry-After is waited for and the read goes through", async () => {
    foreign.messages.set("em-429s", foreignMessage("em-429s", "Delivered"));
    await deliver("email.delivered", "em-429s");
    foreign.rateLimit(1, "1");
    const started = Date.now();
    await drainRereads();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(foreign.reads("em-429s")).toBe(2);
    expect((await row("em-429s"))!.status).toBe("delivered");
  });

  it("429s without Retry-After back off, doubling per 429 in a row", async () => {
    foreign.messages.set("em-429b", foreignMessage("em-429b", "Delivered"));
    await deliver("email.delivered", "em-429b");
    foreign.rateLimit(100);
    // Each pause is measured from before its read, not from whenever a busy machine gets to look at it.
    let before = Date.now();
    await drainRereads();
    const first = (await (await db()).select().from(rereadPauses))[0];
    expect(first.strikes).toBe(1);
    expect(first.until.getTime()).toBeGreaterThanOrEqual(before + 2_000);
    await (await db()).update(rereadPauses).set({ until: new Date(Date.now() - 1) });
    before = Date.now();
    await drainRereads();
    const second = (await (await db()).select().from(rereadPauses))[0];
    expect(second.strikes).toBe(2);
    expect(second.until.getTime()).toBeGreaterThanOrEqual(before + 4_000);
  });

  it("a failed read is tried again after twice REREAD_RETRY_BASE_MS, doubled per failure in a row", async () => {
    env({ REREAD_RETRY_BASE_MS: "5000" });
    await deliver("email.delivered", "em-retry-later");
    for (const [attempts, delayMs] of [[1, 10_000], [2, 20_000]] as const) {
      const before = Date.now();
      await drainRereads();
      const after = Date.now();
      const read = await queued("em-retry-later");
      expect(read).toMatchObject({ attempts });
      expect(read!.dueAt.getTime()).toBeGreaterThanOrEqual(before + delayMs - 1_000);
      expect(read!.dueAt.getTime()).toBeLessThanOrEqual(after + delayMs + 1_000);
      await (await db()).update(messageRereads).set({ dueAt: new Date(Date.now() - 1) });
    }
  });

  /** Reads of the messages until the worker gives up on them (REFUSED_ATTEMPTS refusals in a row, each with this error). */
  async function readUntilGivenUp(ids: string[], lastError = (id: string) => new RegExp(`^404 .*no email ${id}`)) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      await drainRereads();
      for (const id of ids) expect(await queued(id)).toMatchObject({ attempts: attempt, lastError: expect.stringMatching(lastError(id)) });
      await (await db()).update(messageRereads).set({ dueAt: new Date(Date.now() - 1) });
    }
    await drainRereads();
    for (const id of ids) expect(await queued(id)).toBeUndefined();
  }

  /** A message of the project a read confirmed: what shows, when the service refuses another one, that it reads this project's messages. */
  async function confirmed(id: string) {
    foreign.messages.set(id, foreignMessage(id, "Delivered"));
    await deliver("email.delivered", id);
    await drainRereads();
    expect((await row(id))!.checkedAt).not.toBeNull();
  }

  it("a message known only from deliveries that the service keeps disowning is tried a few times, then removed with its events", async () => {
    await confirmed("em-control");
    await deliver("email.delivered", "em-missing");
    await deliver("email.opened", "em-missing");
    expect(await row("em-missing")).toBeDefined();
    const controlReads = foreign.reads("em-control");
    await readUntilGivenUp(["em-missing"]);
    expect(foreign.reads("em-missing")).toBe(4);
    // Before removing, the worker read a message the service does hand out.
    expect(foreign.reads("em-control")).toBe(controlReads + 1);
    expect(await row("em-missing")).toBeUndefined();
    expect(await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "em-missing"))).toEqual([]);
    expect((await searchMessages(project.id, messageListQuery.parse({ q: "em-missing" }))).data).toEqual([]);
  });

  it("a message the dashboard sent, or one a read once confirmed, is kept when the service answers 404 for it, and left alone for a while", async () => {
    // Known from a delivery, then read once: the service owned it then.
    foreign.messages.set("em-once", foreignMessage("em-once", "Sent"));
    await deliver("email.sent", "em-once");
    await drainRereads();
    expect((await row("em-once"))!.checkedAt).not.toBeNull();
    foreign.messages.delete("em-once");
    await deliver("email.delivered", "em-once");
    // Sent through the dashboard; the stream's delivery came first.
    await deliver("email.sent", "em-ours");
    await (await db()).update(indexedMessages).set({ source: "dashboard" }).where(eq(indexedMessages.id, "em-ours"));
    await readUntilGivenUp(["em-ours", "em-once"]);
    for (const id of ["em-ours", "em-once"]) expect((await row(id))!.checkedAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "em-once"))).not.toEqual([]);
  });

  it("the service's refusal is recognised whatever status it uses for an unknown message (the interface names none): 410, 422", async () => {
    await confirmed("em-control-2");
    for (const [status, id] of [[410, "em-gone"], [422, "em-invalid"]] as const) {
      foreign.answerUnknown((unknown) => ({ status, body: { type: "about:blank", title: "Unknown email", status, detail: `email ${unknown} is not in this account` } }));
      await deliver("email.delivered", id);
      await readUntilGivenUp([id], (unknown) => new RegExp(`^${status === 422 ? 400 : status} .*email ${unknown} is not in this account`));
      expect(foreign.reads(id)).toBe(4);
      expect(await row(id)).toBeUndefined();
      expect(await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, id))).toEqual([]);
    }
  });

  it("a placeholder is kept while the service refuses every message alike (a key it no longer takes): the refusal is not about that message", async () => {
    await confirmed("em-control-3");
    await deliver("email.delivered", "em-unproven");
    foreign.refuseReads(true);
    await readUntilGivenUp(["em-unproven"], () => /^403 .*may not read this project's emails/);
    expect(await row("em-unproven")).toBeDefined();
    expect(await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "em-unproven"))).not.toEqual([]);
  });

  it("survives a restart: a read claimed by an instance that died is taken once its lease ran out; a live lease is left alone", async () => {
    foreign.messages.set("em-dead", foreignMessage("em-dead", "Delivered"));
    foreign.messages.set("em-busy", foreignMessage("em-busy", "Delivered"));
    const d = await db();
    await d.execute(sql`insert into indexed_messages (id, project_id, direction, status, from_address, source, created_at) values ('em-dead', ${project.id}, 'outbound', 'queued', 'x@acme.test', 'dashboard', now()), ('em-busy', ${project.id}, 'outbound', 'queued', 'x@acme.test', 'dashboard', now())`);
    await d.insert(messageRereads).values([
      { projectId: project.id, messageId: "em-dead", reason: "event", dueAt: new Date(Date.now() - 60_000), claimedBy: "a-dead-instance", leaseUntil: new Date(Date.now() - 1_000) },
      { projectId: project.id, messageId: "em-busy", reason: "event", dueAt: new Date(Date.now() - 60_000), claimedBy: "a-live-instance", leaseUntil: new Date(Date.now() + 60_000) },
    ]);
    await drainRereads();
    expect((await row("em-dead"))!.status).toBe("delivered");
    expect(await queued("em-dead")).toBeUndefined();
    expect(foreign.reads("em-busy")).toBe(0);
    expect(await queued("em-busy")).toMatchObject({ claimedBy: "a-live-instance" });
  });
});
