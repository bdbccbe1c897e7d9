import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKey } from "@/app/api/p/[project]/api-keys/route";
import { POST as createWebhook } from "@/app/api/p/[project]/webhooks/route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { apiRequest, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnReal } from "@/lib/test/dashboard-on-real";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * One-time secrets (an API key's secret, a webhook's signing secret) pass through the
 * dashboard once, into the response. No piece of them — not even a 6-character prefix —
 * may reach the audit log. Real routes, the real bundled service, every audit row read back.
 */
let close: () => Promise<void>;
let admin: string;

beforeAll(async () => {
  ({ close } = await startDashboardOnReal());
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

function pieces(secret: string, length = 6): string[] {
  const out: string[] = [];
  for (let i = 0; i + length <= secret.length; i++) out.push(secret.slice(i, i + length));
  return out;
}

describe("one-time secrets never reach the audit log", () => {
  it("after creating an API key and a webhook, no audit row holds any 6-character piece of either secret", async () => {
    const keyRes = await createKey(await apiRequest("/api/p/alpha/api-keys", { method: "POST", cookie: admin, body: { name: "staging app", reach: "project", scopes: ["emails:send"] } }), params({ project: "alpha" }));
    expect(keyRes.status).toBe(201);
    const { secret } = (await keyRes.json()) as { secret: string };
    const hookRes = await createWebhook(await apiRequest("/api/p/alpha/webhooks", { method: "POST", cookie: admin, body: { url: "https://hooks.example.com/mail", eventTypes: ["delivery"] } }), params({ project: "alpha" }));
    expect(hookRes.status).toBe(201);
    const { signingSecret } = (await hookRes.json()) as { signingSecret: string };
    expect(secret.length).toBeGreaterThan(20);
    expect(signingSecret).toMatch(/^whsec_/);

    const rows = await (await db()).select().from(auditLog);
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(["api_key.create", "webhook.create"]));
    const text = rows.map((r) => JSON.stringify(r)).join("\n");
    // The secrets' random parts (prefixes like "sk_" or "whsec_" are shared by every secret).
    const randomKey = secret.replace(/^[a-z]+_/, "");
    const randomSigning = signingSecret.replace(/^whsec_/, "");
    for (const piece of [...pieces(randomKey), ...pieces(randomSigning)]) expect(text).not.toContain(piece);
  });
});
