import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../lib/accounts";
import { markUnsubscribed } from "../lib/contacts";
import { createTestService, type TestService } from "../test/harness";

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

const create = (body: unknown, project: string | null = "alpha", key?: string) => svc.call("POST", "/v1/contacts", { body, project, key });

describe("POST /v1/contacts", () => {
  it("creates a subscribed contact (201) with every field", async () => {
    const res = await create({ email: "Ann@Example.com", firstName: "Ann", lastName: "Lee", metadata: { plan: "pro", seats: 3 } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      email: "ann@example.com", firstName: "Ann", lastName: "Lee", subscribed: true, unsubscribedAt: null, metadata: { plan: "pro", seats: 3 },
    });
    expect(body.id).toMatch(/^contact_/);
    expect(Date.parse(body.createdAt)).not.toBeNaN();
  });

  it("fills the defaults of a minimal contact", async () => {
    const body = await (await create({ email: "min@example.com" })).json();
    expect(body).toMatchObject({ firstName: null, lastName: null, subscribed: true, unsubscribedAt: null, metadata: {} });
  });

  it("sets unsubscribedAt for a contact created unsubscribed", async () => {
    const body = await (await create({ email: "out@example.com", subscribed: false })).json();
    expect(body.subscribed).toBe(false);
    expect(Date.now() - Date.parse(body.unsubscribedAt)).toBeLessThan(60_000);
  });

  it("answers 409 contact_exists, naming the existing contact, for an address the project has", async () => {
    const first = await (await create({ email: "dup@example.com" })).json();
    const again = await create({ email: "DUP@example.com", firstName: "Other" });
    expect(again.status).toBe(409);
    const { error } = await again.json();
    expect(error).toMatchObject({ code: "contact_exists", param: "email" });
    expect(error.message).toContain(first.id);
    expect((await create({ email: "dup@example.com" }, "beta")).status).toBe(201);
  });

  it.each([
    [{}, "email"],
    [{ email: "nope" }, "email"],
    [{ email: "a@b.co", firstName: "x".repeat(201) }, "firstName"],
    [{ email: "a@b.co", lastName: 5 }, "lastName"],
    [{ email: "a@b.co", subscribed: "yes" }, "subscribed"],
    [{ email: "a@b.co", metadata: [1] }, "metadata"],
  ])("refuses %j with 400 naming %s", async (body, param) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: "validation_error", param });
    expect(error.message.startsWith(`${param}: `)).toBe(true);
  });

  it("requires a project for an account-wide key, takes either header, and keeps a project key to its project", async () => {
    const missing = await create({ email: "h@example.com" }, null);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe("project_required");
    const alias = await svc.call("POST", "/v1/contacts", { project: null, headers: { "X-Service-Sender": "beta" }, body: { email: "alias@example.com" } });
    expect(alias.status).toBe(201);
    expect((await create({ email: "k@example.com" }, null, svc.alphaKey)).status).toBe(201);
    expect((await create({ email: "k@example.com" }, "beta", svc.alphaKey)).status).toBe(403);
  });

  it("needs the contacts:write scope and a key", async () => {
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "ro", scopes: ["contacts:read"] });
    expect((await create({ email: "s@example.com" }, "alpha", secret)).status).toBe(403);
    expect((await create({ email: "s@example.com" }, "alpha", "sk_nope")).status).toBe(401);
  });
});

describe("GET /v1/contacts/{id}", () => {
  it("returns the contact to its project, with or without the header", async () => {
    const made = await (await create({ email: "get@example.com", firstName: "G" })).json();
    for (const init of [{}, { project: null }, { project: null, key: svc.alphaKey }]) {
      const res = await svc.call("GET", `/v1/contacts/${made.id}`, init);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(made);
    }
  });

  it("answers 404 for an unknown id and for another project's contact", async () => {
    const unknown = await svc.call("GET", "/v1/contacts/contact_0000000000000000");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: "not_found", param: "id" });
    const beta = await (await create({ email: "beta-only@example.com" }, "beta")).json();
    expect((await svc.call("GET", `/v1/contacts/${beta.id}`, { project: "alpha" })).status).toBe(404);
    expect((await svc.call("GET", `/v1/contacts/${beta.id}`, { project: null, key: svc.alphaKey })).status).toBe(404);
  });

  it("needs the contacts:read scope", async () => {
    const made = await (await create({ email: "scope-get@example.com" })).json();
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "w", scopes: ["emails:send"] });
    expect((await svc.call("GET", `/v1/contacts/${made.id}`, { key: secret })).status).toBe(403);
  });
});

describe("POST /v1/contacts/{id}/resubscribe", () => {
  it("subscribes the contact again and lifts an unsubscribe suppression, not a bounce", async () => {
    const made = await (await create({ email: "back@example.com", subscribed: false })).json();
    await svc.call("POST", "/v1/suppressions", { body: { email: "back@example.com", reason: "unsubscribe" } });
    const res = await svc.call("POST", `/v1/contacts/${made.id}/resubscribe`, { project: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: made.id, subscribed: true, unsubscribedAt: null });
    const list = await (await svc.call("GET", "/v1/suppressions?limit=100")).json();
    expect(list.data.map((s: { email: string }) => s.email)).not.toContain("back@example.com");

    const bounced = await (await create({ email: "bounced@example.com", subscribed: false })).json();
    await svc.call("POST", "/v1/suppressions", { body: { email: "bounced@example.com", reason: "bounce" } });
    expect((await svc.call("POST", `/v1/contacts/${bounced.id}/resubscribe`)).status).toBe(200);
    const after = await (await svc.call("GET", "/v1/suppressions?limit=100")).json();
    expect(after.data).toContainEqual(expect.objectContaining({ email: "bounced@example.com", reason: "bounce" }));
  });

  it("is a no-op success for a subscribed contact", async () => {
    const made = await (await create({ email: "still@example.com" })).json();
    const res = await svc.call("POST", `/v1/contacts/${made.id}/resubscribe`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(made);
  });

  it("answers 404 for an unknown id or another project's contact, 403 without contacts:write", async () => {
    expect((await svc.call("POST", "/v1/contacts/contact_0000000000000000/resubscribe")).status).toBe(404);
    const beta = await (await create({ email: "re-beta@example.com", subscribed: false }, "beta")).json();
    expect((await svc.call("POST", `/v1/contacts/${beta.id}/resubscribe`, { key: svc.alphaKey, project: null })).status).toBe(404);
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "r", scopes: ["contacts:read"] });
    expect((await svc.call("POST", `/v1/contacts/${beta.id}/resubscribe`, { key: secret })).status).toBe(403);
  });
});

describe("markUnsubscribed", () => {
  it("unsubscribes the project's contact for the address once, and leaves other projects alone", async () => {
    const a = await (await create({ email: "complainer@example.com" })).json();
    const b = await (await create({ email: "complainer@example.com" }, "beta")).json();
    expect(await markUnsubscribed(svc.db, svc.alpha.id, "Complainer@Example.com")).toBe(true);
    expect(await markUnsubscribed(svc.db, svc.alpha.id, "complainer@example.com")).toBe(false);
    expect(await markUnsubscribed(svc.db, svc.alpha.id, "nobody@example.com")).toBe(false);
    const after = await (await svc.call("GET", `/v1/contacts/${a.id}`)).json();
    expect(after.subscribed).toBe(false);
    expect(after.unsubscribedAt).not.toBeNull();
    expect((await (await svc.call("GET", `/v1/contacts/${b.id}`, { project: null })).json()).subscribed).toBe(true);
  });
});
