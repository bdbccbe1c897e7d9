import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { contacts, domains, messages, suppressions, webhooks } from "../db/schema";
import { createTestService, type TestService } from "../test/harness";

/**
 * Every operation that acts on a project resolves it the same way (requireProject,
 * service/lib/auth.ts): missing, unknown and out-of-reach projects are answered alike, and
 * nothing is written for them.
 */
let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

const email = { from: { email: "hi@alpha.test" }, to: [{ email: "someone@example.com" }], subject: "Hello", text: "Hi" };
const operations: { method: string; path: string; body?: unknown }[] = [
  { method: "GET", path: "/v1/templates" },
  { method: "POST", path: "/v1/templates/preview", body: { subject: "Hi {{name}}", data: { name: "x" } } },
  { method: "GET", path: "/v1/domains" },
  { method: "POST", path: "/v1/domains", body: { domain: "resolution.example.com" } },
  { method: "GET", path: "/v1/webhooks" },
  { method: "POST", path: "/v1/webhooks", body: { url: "https://hooks.example.com/x", eventTypes: ["sent"] } },
  { method: "GET", path: "/v1/suppressions" },
  { method: "POST", path: "/v1/suppressions", body: { email: "blocked@example.com" } },
  { method: "POST", path: "/v1/contacts", body: { email: "person@example.com" } },
  { method: "POST", path: "/v1/emails", body: email },
  { method: "POST", path: "/v1/emails/batch", body: { emails: [email] } },
  { method: "POST", path: "/v1/inbound/simulate", body: { to: "in@alpha.test", from: "someone@example.com", subject: "Hi", text: "Hi" } },
];

const rowsWritten = async () => {
  let total = 0;
  for (const table of [domains, webhooks, suppressions, contacts, messages]) total += (await svc.db.select({ n: count() }).from(table))[0].n;
  return total;
};

describe("the project of a request", () => {
  it.each(operations)("$method $path: none named, unknown, or another key's project is refused the same way", async ({ method, path, body }) => {
    const before = await rowsWritten();

    const missing = await svc.call(method, path, { body, project: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({ code: "project_required", param: "X-Service-Product" });

    const unknown = await svc.call(method, path, { body, project: "nobody" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatchObject({ code: "unknown_project", param: "X-Service-Product", message: expect.stringContaining("'nobody'") });

    const bySender = await svc.call(method, path, { body, project: null, headers: { "X-Service-Sender": "nobody" } });
    expect(bySender.status).toBe(400);
    expect((await bySender.json()).error).toMatchObject({ code: "unknown_project", param: "X-Service-Sender" });

    const foreign = await svc.call(method, path, { body, key: svc.alphaKey, project: "beta" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toMatchObject({ code: "project_forbidden", param: "X-Service-Product" });

    expect(await rowsWritten()).toBe(before);
  });
});
