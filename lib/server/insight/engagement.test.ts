import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedEvents } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { getRecipient } from "@/lib/server/messages/recipient";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";

let dispose: () => Promise<void>;
let project: Project;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
  const send = (id: string, to: string, status: string, cc: string[] = []) => ({
    projectId: project.id,
    messageId: id,
    request: { from: { email: "shop@acme.test" }, to: [{ email: to, name: "Ada" }], cc: cc.map((email) => ({ email })), subject: id, text: "x" },
    sentBy: null,
    idempotencyKey: null,
    source: "dashboard" as const,
    status,
  });
  await recordSentMessages([send("a1", "Ada@Example.com", "delivered"), send("a2", "ada@example.com", "delivered"), send("a3", "ada@example.com", "bounced"), send("b1", "bo@example.com", "delivered", ["ada@example.com"]), send("c1", "cy@example.com", "delivered")]);
  const event = (messageId: string, type: string, when: string, origin: "stream" | "read") => ({ messageId, projectId: project.id, type, occurredAt: at(when), origin, webhookId: `${origin}:${messageId}:${type}:${when}` });
  await (await db()).insert(indexedEvents).values([
    // a1 opened twice and clicked, each seen by the stream and by a read.
    ...(["stream", "read"] as const).flatMap((o) => [event("a1", "open", "2026-03-01T10:00:00Z", o), event("a1", "open", "2026-03-02T10:00:00Z", o), event("a1", "click", "2026-03-02T10:01:00Z", o)]),
    event("b1", "open", "2026-03-03T08:00:00Z", "stream"),
    event("c1", "click", "2026-03-09T08:00:00Z", "stream"), // someone else's
  ]);
});
afterAll(() => dispose());

describe("a recipient's engagement", () => {
  it("counts the messages it received, delivered, opened and clicked, each once, and its last open and click", async () => {
    const view = await getRecipient(project, "ADA@example.com");
    expect(view.engagement).toEqual({
      received: 4, // a1, a2, a3, and b1 as cc
      delivered: 3,
      opened: 2, // a1, b1
      clicked: 1,
      lastOpenAt: "2026-03-03T08:00:00.000Z",
      lastClickAt: "2026-03-02T10:01:00.000Z",
    });
    expect((await getRecipient(project, "nobody@example.com")).engagement).toEqual({ received: 0, delivered: 0, opened: 0, clicked: 0, lastOpenAt: null, lastClickAt: null });
  });
});
