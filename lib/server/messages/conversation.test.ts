import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { foreignMessage, startForeignService, type ForeignService } from "@/lib/test/foreign-service";
import { conversationOf } from "./conversation";
import { getMessageDetail } from "./detail";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { replyToMessage } from "./reply";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let foreign: ForeignService;
let project: Project;
let support: Actor;
let n = 0;

beforeAll(async () => {
  foreign = await startForeignService();
  foreign.refuseWebhooks.add("threads");
  setTestEnv({ SERVICE_URL: foreign.url, PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "threads" }, SYSTEM_ACTOR, { checkWithService: false });
  const { user } = await createUser(createUserRequest.parse({ email: "support@example.com", role: "support", password: "correct horse battery" }), SYSTEM_ACTOR);
  support = { ...user, projectIds: [], authAt: Date.now() } as unknown as Actor;
});
afterAll(async () => {
  await dispose();
  await foreign.close();
});

const reply = (id: string, text: string) => replyToMessage(project, support, id, { text, idempotencyKey: `reply-key-${++n}-${crypto.randomUUID()}` });
const ids = (list: { id: string }[]) => list.map((m) => m.id);

/** An inbound message the service has (without any thread field) and the index knows. */
async function inbound(id: string, subject: string, ageMs: number) {
  const m = foreignMessage(id, "Received", { direction: "inbound", from: "ada@example.com", to: ["support@acme.test"], subject, createdAt: new Date(Date.now() - ageMs).toISOString() });
  foreign.messages.set(id, m);
  await indexServiceMessage(project.id, { ...m, events: m.events.map((e) => ({ ...e, data: e.data ?? {} })) });
}

describe("conversations from what the dashboard knows", () => {
  it("a reply against a service without a thread field is linked to what it answers, and the conversation shows both", async () => {
    await inbound("in-1", "Where is my order?", 60_000);
    const sent = await reply("in-1", "It left this morning.");
    const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, sent.id));
    expect(row).toMatchObject({ inReplyTo: "in-1", threadId: null, direction: "outbound", to: ["ada@example.com"], source: "dashboard", sentBy: support.id });
    expect(ids(await conversationOf(project.id, "in-1"))).toEqual(["in-1", sent.id]);
    expect(ids(await conversationOf(project.id, sent.id))).toEqual(["in-1", sent.id]);
    // The message screen's Conversation card.
    const detail = await getMessageDetail(project, "in-1");
    expect(detail.message.threadId ?? null).toBeNull();
    expect(ids(detail.thread)).toEqual(["in-1", sent.id]);
  });

  it("follows the whole chain both ways: a reply to a reply, from any message of it", async () => {
    await inbound("in-2", "Refund", 120_000);
    const first = await reply("in-2", "Refunded.");
    const second = await reply(first.id, "Also: the refund takes three days.");
    const chain = ["in-2", first.id, second.id];
    for (const id of chain) expect(ids(await conversationOf(project.id, id))).toEqual(chain);
    // A message outside the chain is not pulled in.
    expect(ids(await conversationOf(project.id, "in-1"))).not.toContain(second.id);
  });

  it("merges the service's thread field with the dashboard's links", async () => {
    const at = (s: number) => new Date(Date.now() - s * 1000).toISOString();
    // The service threads a and b; c answers b (a link only the dashboard knows); d is alone.
    for (const [id, threadId, age] of [["t-a", "thr-1", 50], ["t-b", "thr-1", 40], ["t-c", null, 30], ["t-d", null, 20]] as const) {
      const m = foreignMessage(id, "Delivered", { createdAt: at(age), ...(threadId ? { threadId } : {}) });
      await indexServiceMessage(project.id, { ...m, events: [] }, id === "t-c" ? { inReplyTo: "t-b" } : {});
    }
    expect(ids(await conversationOf(project.id, "t-c"))).toEqual(["t-a", "t-b", "t-c"]);
    expect(ids(await conversationOf(project.id, "t-a", "thr-1"))).toEqual(["t-a", "t-b", "t-c"]);
    expect(ids(await conversationOf(project.id, "t-d"))).toEqual(["t-d"]);
  });

  it("keeps the dashboard's link when a later read of the reply brings a service's own in-reply-to value", async () => {
    await inbound("in-3", "Invoice", 30_000);
    const sent = await reply("in-3", "Attached.");
    const m = foreign.messages.get(sent.id)!;
    await indexServiceMessage(project.id, { ...m, inReplyTo: "<CAF=abc@mail.example.com>", events: [] });
    const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, sent.id));
    expect(row.inReplyTo).toBe("in-3");
  });
});
