import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../db/schema";
import { createApiKey } from "../lib/accounts";
import { sha256 } from "../lib/crypto";
import { createTestService, type TestService } from "../test/harness";

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

const create = (body: unknown, key?: string) => svc.call("POST", "/v1/api-keys", { body, key, project: null });

describe("POST /v1/api-keys", () => {
  it("creates an account-wide full-access key whose secret works and is stored only hashed", async () => {
    const res = await create({ name: "CI" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ name: "CI", senderId: null, scopes: ["full_access"] });
    expect(body.id).toMatch(/^key_/);
    expect(body.secret).toMatch(/^sk_/);
    expect(body.prefix).toBe(body.secret.slice(0, 10));
    expect(body).not.toHaveProperty("hash");
    const [row] = await svc.db.select().from(apiKeys).where(eq(apiKeys.id, body.id));
    expect(row.hash).toBe(sha256(body.secret));
    expect(JSON.stringify(row)).not.toContain(body.secret);
    // the new key authenticates and, being account-wide, names its project
    expect((await svc.call("GET", "/v1/suppressions", { key: body.secret, project: "beta" })).status).toBe(200);
  });

  it("ties a key to the project named in senderId, with the scopes asked for", async () => {
    const res = await create({ name: "beta sender", senderId: "beta", scopes: ["emails:send", "suppressions:read", "emails:send"] });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ senderId: "beta", scopes: ["emails:send", "suppressions:read"] });
    // project implied without a header; another project refused; a scope it lacks refused
    expect((await svc.call("GET", "/v1/suppressions", { key: body.secret, project: null })).status).toBe(200);
    expect((await svc.call("GET", "/v1/suppressions", { key: body.secret, project: "alpha" })).status).toBe(403);
    expect((await svc.call("POST", "/v1/suppressions", { key: body.secret, project: null, body: { email: "a@b.co" } })).status).toBe(403);
  });

  it.each([
    [{}, "name"],
    [{ name: "  " }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ name: "k", scopes: ["emails:delete"] }, "scopes.0"],
    [{ name: "k", scopes: [] }, "scopes"],
    [{ name: "k", senderId: "" }, "senderId"],
  ])("refuses %j with 400 naming %s", async (body, param) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "validation_error", param });
  });

  it("answers 400 for an unknown senderId", async () => {
    const res = await create({ name: "k", senderId: "gamma" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "unknown_project", param: "senderId" });
  });

  it("lets a project key create keys for its own project only, never account-wide", async () => {
    const own = await create({ name: "own", senderId: "alpha" }, svc.alphaKey);
    expect(own.status).toBe(201);
    expect(await own.json()).toMatchObject({ senderId: "alpha", scopes: ["full_access"] });
    const other = await create({ name: "other", senderId: "beta" }, svc.alphaKey);
    expect(other.status).toBe(403);
    expect((await other.json()).error).toMatchObject({ code: "project_forbidden", param: "senderId" });
    const wide = await create({ name: "wide" }, svc.alphaKey);
    expect(wide.status).toBe(403);
    expect((await wide.json()).error.param).toBe("senderId");
  });

  it("never grants scopes the creating key lacks, and lets omitted scopes inherit its own", async () => {
    const { secret } = await createApiKey(svc.db, {
      accountId: svc.account.id, projectId: null, name: "keys", scopes: ["api_keys:write", "emails:send"],
    });
    const more = await create({ name: "more", scopes: ["emails:send", "domains:write"] }, secret);
    expect(more.status).toBe(403);
    expect((await more.json()).error).toMatchObject({ code: "insufficient_scope", param: "scopes" });
    expect((await create({ name: "full", scopes: ["full_access"] }, secret)).status).toBe(403);
    const inherit = await create({ name: "inherit" }, secret);
    expect(inherit.status).toBe(201);
    expect((await inherit.json()).scopes).toEqual(["api_keys:write", "emails:send"]);
    const fewer = await create({ name: "fewer", scopes: ["emails:send"] }, secret);
    expect((await fewer.json()).scopes).toEqual(["emails:send"]);
  });

  it("needs the api_keys:write scope", async () => {
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "send", scopes: ["emails:send"] });
    const res = await create({ name: "nope" }, secret);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("insufficient_scope");
  });

  it("answers 401 without a key or with an unknown one", async () => {
    const res = await svc.app.request("/v1/api-keys", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect((await create({ name: "x" }, "sk_unknown")).status).toBe(401);
  });

  it("answers 400 invalid_json for a body that is not JSON", async () => {
    const res = await svc.app.request("/v1/api-keys", {
      method: "POST", headers: { Authorization: `Bearer ${svc.accountKey}`, "Content-Type": "application/json" }, body: "{nope",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_json");
  });
});

describe("DELETE /v1/api-keys/{id} (beyond the interface)", () => {
  const revoke = (id: string, key?: string) => svc.call("DELETE", `/v1/api-keys/${encodeURIComponent(id)}`, { key, project: null });
  const works = async (secret: string) => (await svc.call("GET", "/v1/suppressions", { key: secret, project: "alpha" })).status;

  it("revokes a key: it stops working at once (no cache grace), and a second revoke is 404", async () => {
    const created = await (await create({ name: "to revoke" })).json();
    expect(await works(created.secret)).toBe(200);
    const res = await revoke(created.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await works(created.secret)).toBe(401);
    const [row] = await svc.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect((await revoke(created.id)).status).toBe(404);
  });

  it("lets a project key revoke keys of its own project only; others look absent", async () => {
    const own = await (await create({ name: "alpha app", senderId: "alpha" })).json();
    const other = await (await create({ name: "beta app", senderId: "beta" })).json();
    const wide = await (await create({ name: "wide" })).json();
    const notFoundForAlpha = [await revoke(other.id, svc.alphaKey), await revoke(wide.id, svc.alphaKey)];
    for (const res of notFoundForAlpha) {
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ code: "not_found", param: "id" });
    }
    expect(await works(wide.secret)).toBe(200);
    expect((await revoke(own.id, svc.alphaKey)).status).toBe(204);
  });

  it("needs the api_keys:write scope, and answers 404 for an unknown id", async () => {
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "send", scopes: ["emails:send"] });
    const victim = await (await create({ name: "victim" })).json();
    const refused = await revoke(victim.id, secret);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("insufficient_scope");
    expect((await revoke("key_does_not_exist")).status).toBe(404);
  });
});
