import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as LIST } from "./route";
import { POST as PROCESS } from "./[id]/process/route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { noteDelivery } from "@/lib/server/event-stream/delivery-log";
import type { Project } from "@/lib/server/gate/access";
import { apiRequest, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnReal } from "@/lib/test/dashboard-on-real";
import { webhookDeliveryList } from "@/lib/schemas/webhook-deliveries";
import { createUserRequest } from "@/lib/schemas/users";

/** The delivery log's routes: admins only, the list parsed by its schema, "process again" refusing what it cannot run. */
let close: () => Promise<void>;
let alpha: Project;
let admin: string;
let support: string;

beforeAll(async () => {
  ({ close, alpha } = await startDashboardOnReal());
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "support@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

const list = async (cookie: string) => LIST(await apiRequest("/api/p/alpha/event-stream/deliveries", { cookie }), params({ project: "alpha" }));
const processAgain = async (cookie: string, id: string) =>
  PROCESS(await apiRequest(`/api/p/alpha/event-stream/deliveries/${id}/process`, { method: "POST", cookie }), params({ project: "alpha", id }));

describe("the delivery log's routes", () => {
  it("lists the project's deliveries to an admin, and to nobody else", async () => {
    noteDelivery({ projectId: alpha.id, webhookId: "whd_route", verified: false, signature: "the signature does not match the signing secret", outcome: "refused", reason: "bad", raw: Buffer.from('{"to":"ada@example.com"}') });
    const res = await list(admin);
    expect(res.status).toBe(200);
    const body = webhookDeliveryList.parse(await res.json());
    expect(body.data[0]).toMatchObject({ webhookId: "whd_route", outcome: "refused", body: '{"to":"***@example.com"}', canProcessAgain: false });
    expect((await list(support)).status).toBe(403);
  });

  it("refuses to process again a refused delivery (409), an unknown one (404), a malformed id (400); audits the attempt", async () => {
    const [refused] = webhookDeliveryList.parse(await (await list(admin)).json()).data;
    const answer = await processAgain(admin, refused!.id);
    expect(answer.status).toBe(409);
    expect((await answer.json()).error.message).toContain("refused");
    expect((await processAgain(admin, "0b7c2f1e-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await (await processAgain(admin, "no/such")).json()).toMatchObject({ error: { param: "id" } });
    expect((await processAgain(support, refused!.id)).status).toBe(403);
    // A refusal before anything ran is not an action: nothing audited.
    expect(JSON.stringify(await (await db()).select().from(auditLog))).not.toContain("webhook.delivery.process");
  });
});
