import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createApiKey } from "../lib/accounts";
import { createTestService, type TestService } from "../test/harness";

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

describe("suppressions", () => {
  it("adds a suppression (201) and lists it, newest first", async () => {
    const res = await svc.call("POST", "/v1/suppressions", { body: { email: "Blocked@Example.com", reason: "complaint" } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ email: "blocked@example.com", reason: "complaint" });
    const list = await (await svc.call("GET", "/v1/suppressions")).json();
    expect(list.data.map((s: { email: string }) => s.email)).toContain("blocked@example.com");
  });

  it("names the field of invalid input", async () => {
    const res = await svc.call("POST", "/v1/suppressions", { body: { email: "not-an-address" } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "validation_error", param: "email" });
    expect(body.error.message).toMatch(/^email: /);
  });

  it("keeps projects apart", async () => {
    await svc.call("POST", "/v1/suppressions", { body: { email: "only-alpha@example.com" } });
    const beta = await (await svc.call("GET", "/v1/suppressions", { project: "beta" })).json();
    expect(beta.data.map((s: { email: string }) => s.email)).not.toContain("only-alpha@example.com");
  });

  it("pages through many suppressions in a stable order", async () => {
    for (let i = 0; i < 25; i++) await svc.call("POST", "/v1/suppressions", { project: "beta", body: { email: `p${i}@example.com` } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : "";
      const res = await svc.call("GET", `/v1/suppressions?limit=10${q}`, { project: "beta" });
      const body = await res.json();
      expect(body.data.length).toBeLessThanOrEqual(10);
      seen.push(...body.data.map((s: { email: string }) => s.email));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it("refuses a limit outside 1..100 and a forged cursor", async () => {
    expect((await svc.call("GET", "/v1/suppressions?limit=101")).status).toBe(400);
    expect((await svc.call("GET", "/v1/suppressions?limit=0")).status).toBe(400);
    const res = await svc.call("GET", "/v1/suppressions?cursor=bm9wZQ");
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("cursor");
  });

  it("requires the project header for an account-wide key, and accepts its alias", async () => {
    const missing = await svc.call("GET", "/v1/suppressions", { project: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe("project_required");
    const alias = await svc.call("GET", "/v1/suppressions", { project: null, headers: { "X-Service-Sender": "beta" } });
    expect(alias.status).toBe(200);
    const unknown = await svc.call("GET", "/v1/suppressions", { project: "nope" });
    expect(unknown.status).toBe(400);
  });

  it("lets a project key act on its project only", async () => {
    expect((await svc.call("GET", "/v1/suppressions", { key: svc.alphaKey, project: null })).status).toBe(200);
    expect((await svc.call("GET", "/v1/suppressions", { key: svc.alphaKey, project: "beta" })).status).toBe(403);
  });

  it("answers 401 without a key or with an unknown one", async () => {
    const res = await svc.app.request("/v1/suppressions");
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("missing_api_key");
    expect((await svc.call("GET", "/v1/suppressions", { key: "sk_unknown" })).status).toBe(401);
  });

  it("returns an existing suppression unchanged instead of adding it twice", async () => {
    const first = await (await svc.call("POST", "/v1/suppressions", { body: { email: "twice@example.com", reason: "bounce" } })).json();
    const again = await svc.call("POST", "/v1/suppressions", { body: { email: "TWICE@example.com", reason: "manual" } });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(first);
  });

  it("defaults the reason to manual and refuses an unknown reason naming the field", async () => {
    expect(await (await svc.call("POST", "/v1/suppressions", { body: { email: "m@example.com" } })).json()).toMatchObject({ reason: "manual" });
    const res = await svc.call("POST", "/v1/suppressions", { body: { email: "r@example.com", reason: "angry" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("reason");
  });

  it("enforces the suppressions:read and suppressions:write scopes", async () => {
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "ro", scopes: ["suppressions:read"] });
    expect((await svc.call("GET", "/v1/suppressions", { key: secret })).status).toBe(200);
    const write = await svc.call("POST", "/v1/suppressions", { key: secret, body: { email: "w@example.com" } });
    expect(write.status).toBe(403);
    expect((await write.json()).error.code).toBe("insufficient_scope");
    const { secret: sendOnly } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "s", scopes: ["emails:send"] });
    expect((await svc.call("GET", "/v1/suppressions", { key: sendOnly })).status).toBe(403);
  });

  it("pages completely through rows created in the same millisecond or the same microsecond", async () => {
    const t = await createTestService();
    try {
      // 6 rows within one millisecond (microseconds apart), 6 more sharing one timestamp
      for (let i = 0; i < 12; i++) {
        const at = i < 6 ? `2026-01-01 00:00:00.1234${50 - i}+00` : "2026-01-01 00:00:00.5+00";
        await t.db.execute(sql`insert into suppressions (project_id, email, reason, created_at) values (${t.alpha.id}, ${`u${i}@example.com`}, 'manual', ${at}::timestamptz)`);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await t.call("GET", `/v1/suppressions?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
        const body = await res.json();
        seen.push(...body.data.map((s: { email: string }) => s.email));
        cursor = body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(["u9", "u8", "u7", "u6", "u11", "u10", "u0", "u1", "u2", "u3", "u4", "u5"].map((u) => `${u}@example.com`));
    } finally {
      await t.close();
    }
  });
});
