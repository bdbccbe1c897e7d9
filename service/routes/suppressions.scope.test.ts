import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageEvents } from "../db/schema";
import type { TestService } from "../test/harness";
import { createSendingService, statusOf, waitFor } from "../test/sending-fixtures";

/** A suppression belongs to its project: it blocks sends there and nowhere else. */
let svc: TestService;
beforeAll(async () => {
  svc = await createSendingService({ worker: true });
});
afterAll(() => svc.close());

async function send(project: "alpha" | "beta", to: string) {
  const res = await svc.call("POST", "/v1/emails", { project, body: { from: { email: `app@${project}.test` }, to: [{ email: to }], subject: "Hi", text: "x" } });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

describe("suppressions are per project", () => {
  it("an address suppressed in beta is delivered from alpha, and rejected from beta", async () => {
    expect((await svc.call("POST", "/v1/suppressions", { project: "beta", body: { email: "delivered@example.com", reason: "manual" } })).status).toBe(201);
    const fromAlpha = await send("alpha", "delivered@example.com");
    const fromBeta = await send("beta", "delivered@example.com");
    await waitFor(async () => (await statusOf(svc.db, fromBeta)) === "rejected", "beta's send to be rejected");
    await waitFor(async () => (await statusOf(svc.db, fromAlpha)) === "delivered", "alpha's send to be delivered");
    const alphaEvents = await svc.db.select().from(messageEvents).where(eq(messageEvents.messageId, fromAlpha));
    expect(alphaEvents.map((e) => e.type)).not.toContain("rejected");
  });
});
