import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as LIST, POST as CREATE } from "./route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { apiRequest, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnReal } from "@/lib/test/dashboard-on-real";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Finding 5 of the review, for the service's webhooks: an endpoint URL with a receiver's
 * credentials (userinfo, query, a token in the path) is answered masked by our API, to the
 * admin who created it and in the list after, and written masked to the audit log.
 * Real routes, the real bundled service.
 */
const URL_WITH_SECRETS = "https://hookuser:hookpass@hooks.example.com/services/T0123ABCD/aB3dE5gH7jK9mN1pQ3sT5vX7?token=tok-0123456789";
const MASKED = "https://***@hooks.example.com/services/T0123ABCD/***?token=***";
const SECRETS = ["hookuser", "hookpass", "aB3dE5gH7jK9mN1pQ3sT5vX7", "tok-0123456789"];

let close: () => Promise<void>;
let admin: string;

beforeAll(async () => {
  ({ close } = await startDashboardOnReal());
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

describe("webhook endpoint URLs", () => {
  it("are answered with their credentials masked, on creation and in the list, and audited masked", async () => {
    const created = await CREATE(await apiRequest("/api/p/alpha/webhooks", { method: "POST", cookie: admin, body: { url: URL_WITH_SECRETS, eventTypes: ["delivery"] } }), params({ project: "alpha" }));
    expect(created.status).toBe(201);
    expect((await created.json()).url).toBe(MASKED);
    const list = await LIST(await apiRequest("/api/p/alpha/webhooks", { cookie: admin }), params({ project: "alpha" }));
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(JSON.parse(text).data.map((w: { url: string }) => w.url)).toContain(MASKED);
    for (const s of SECRETS) expect(text).not.toContain(s);
    const audit = JSON.stringify(await (await db()).select().from(auditLog));
    expect(audit).toContain("webhook.create");
    for (const s of SECRETS) expect(audit).not.toContain(s);
  });
});
