import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { ingestDelivery } from "@/lib/server/event-stream/ingest";
import { registerProject } from "@/lib/server/projects";
import { drainRereads } from "@/lib/server/message-index/reread-worker";
import { setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { FOREIGN_SECRET, startForeignService, type ForeignService } from "@/lib/test/foreign-service";
import { searchMessages } from "./search";
import { simulateInbound } from "./simulate";
import { messageListQuery } from "@/lib/schemas/messages-index";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let foreign: ForeignService;
let project: Project;
let support: Actor;

beforeAll(async () => {
  foreign = await startForeignService();
  setTestEnv({ SERVICE_URL: foreign.url, PUBLIC_URL: "http://dash.test:3000", REREAD_COALESCE_MS: "1" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "inbox" }, SYSTEM_ACTOR, { checkWithService: false });
  await connectEventStream(project);
  const { user } = await createUser(createUserRequest.parse({ email: "support@example.com", role: "support", password: "correct horse battery" }), SYSTEM_ACTOR);
  support = { ...user, projectIds: [], authAt: Date.now() } as unknown as Actor;
});
afterAll(async () => {
  await dispose();
  await foreign.close();
});

const simulate = (from: string, subject: string) => simulateInbound(project, support, { to: "support@acme.test", from, subject, text: "Hello there" });
const found = async (address: string) => (await searchMessages(project.id, messageListQuery.parse({ q: address }))).data;

describe("simulated inbound mail is in Messages at once", () => {
  it("an answer that only wraps the id: indexed from the request at once, then read back by id", async () => {
    const result = await simulate("ada@example.com", "Where is my parcel?");
    expect(result.id).toMatch(/^in-/);
    // Searchable before any event or read: by sender, received, with its subject.
    expect(await found("ada@example.com")).toMatchObject([{ id: result.id, direction: "inbound", status: "received", subject: "Where is my parcel?" }]);
    const [queued] = await (await db()).select().from(messageRereads).where(eq(messageRereads.messageId, result.id!));
    expect(queued).toMatchObject({ reason: "simulate" });
    await drainRereads();
    expect(foreign.reads(result.id!)).toBe(1);
    const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, result.id!));
    expect(row).toMatchObject({ status: "received", text: "Hello there" });
    expect(row.checkedAt).not.toBeNull();
  });

  it("an answer that is the whole message is indexed as it is", async () => {
    foreign.simulateAnswer((id) => ({ ...foreign.messages.get(id)!, events: [{ type: "inbound_received", createdAt: new Date().toISOString(), data: {} }] }));
    const result = await simulate("bo@example.com", "Invoice");
    expect(await found("bo@example.com")).toMatchObject([{ id: result.id, status: "received" }]);
    expect(await (await db()).select().from(messageRereads).where(eq(messageRereads.messageId, result.id!))).toEqual([]);
  });

  it("an answer without any id: the request is listed at once, and replaced when the stream brings the real message", async () => {
    foreign.simulateAnswer(() => ({ ok: true }));
    const result = await simulate("cy@example.com", "No id here");
    expect(result.id).toBeNull();
    const [placeholder] = await found("cy@example.com");
    expect(placeholder).toMatchObject({ source: "simulated", status: "received", subject: "No id here" });

    const real = [...foreign.messages.values()].find((m) => m.subject === "No id here")!;
    const body = JSON.stringify({ type: "inbound.received", data: { id: real.id, from: "Cy <cy@example.com>", to: ["support@acme.test"], subject: "No id here" } });
    const at = new Date();
    const headers = new Headers({ "webhook-id": "evt-cy", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(FOREIGN_SECRET).sign("evt-cy", at, body) });
    expect((await ingestDelivery("inbox", body, headers)).status).toBe(204);
    expect((await found("cy@example.com")).map((m) => m.id)).toEqual([real.id]);
  });
});
