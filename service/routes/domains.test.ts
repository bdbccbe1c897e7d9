import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../lib/accounts";
import { createTestService, type TestService } from "../test/harness";

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

type DomainBody = { id: string; domain: string; status: string; records: { type: string; name: string; value: string; priority: number | null; purpose: string; verified: boolean }[] };

describe("POST /v1/domains", () => {
  it("adds a domain as pending with DKIM, SPF, return-path and DMARC records to publish", async () => {
    const res = await svc.call("POST", "/v1/domains", { body: { domain: "Mail.Shop.org." } });
    expect(res.status).toBe(201);
    const body: DomainBody = await res.json();
    expect(body).toMatchObject({ domain: "mail.shop.org", status: "pending" });
    expect(body.id).toMatch(/^dom_/);
    const byPurpose = Object.fromEntries(body.records.map((r) => [r.purpose, r]));
    expect(Object.keys(byPurpose).sort()).toEqual(["dkim", "dmarc", "return_path", "spf"]);
    expect(byPurpose.dkim).toMatchObject({ type: "TXT", verified: false });
    expect(byPurpose.dkim.name).toMatch(/^svc[0-9a-f]{10}\._domainkey\.mail\.shop\.org$/);
    // the DKIM value carries a real RSA public key
    const der = Buffer.from(byPurpose.dkim.value.split("p=")[1], "base64");
    const key = createPublicKey({ key: der, format: "der", type: "spki" });
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(byPurpose.spf).toMatchObject({ type: "TXT", name: "bounces.mail.shop.org", value: "v=spf1 include:spf.mailservice.localhost ~all" });
    expect(byPurpose.return_path).toMatchObject({ type: "MX", name: "bounces.mail.shop.org", priority: 10 });
    expect(byPurpose.dmarc).toMatchObject({ type: "TXT", name: "_dmarc.mail.shop.org", value: "v=DMARC1; p=none;" });
  });

  it("stores an internationalized name in its ASCII (punycode) form", async () => {
    const res = await svc.call("POST", "/v1/domains", { body: { domain: "Bücher.example.org" } });
    expect(res.status).toBe(201);
    expect((await res.json()).domain).toBe("xn--bcher-kva.example.org");
  });

  it("answers 409 domain_exists for a domain the project already has, but lets another project add it", async () => {
    await svc.call("POST", "/v1/domains", { body: { domain: "twice.org" } });
    const again = await svc.call("POST", "/v1/domains", { body: { domain: "TWICE.org" } });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: "domain_exists", param: "domain" });
    expect((await svc.call("POST", "/v1/domains", { project: "beta", body: { domain: "twice.org" } })).status).toBe(201);
  });

  it.each([
    [{}, "is required"],
    [{ domain: "localhost" }, "hostname"],
    [{ domain: "bad host.org" }, "hostname"],
    [{ domain: "-x.org" }, "hostname"],
    [{ domain: "10.0.0.1" }, "IP address"],
    [{ domain: 42 }, ""],
  ])("refuses %j with 400 naming the domain field", async (body, text) => {
    const res = await svc.call("POST", "/v1/domains", { body });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: "validation_error", param: "domain" });
    expect(error.message).toContain(text);
  });

  it("needs the domains:write scope", async () => {
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: svc.alpha.id, name: "ro", scopes: ["domains:read"] });
    const res = await svc.call("POST", "/v1/domains", { key: secret, project: null, body: { domain: "scope.org" } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("insufficient_scope");
    expect((await svc.call("GET", "/v1/domains", { key: secret, project: null })).status).toBe(200);
  });
});

describe("GET /v1/domains", () => {
  it("pages newest first in a stable order, keeps projects apart and filters by status", async () => {
    const t = await createTestService();
    try {
      const added: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await t.call("POST", "/v1/domains", { project: "beta", body: { domain: `d${i}.org` } });
        added.push((await res.json()).id);
      }
      await t.call("POST", "/v1/domains", { body: { domain: "alpha-only.org" } });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await t.call("GET", `/v1/domains?limit=3${cursor ? `&cursor=${cursor}` : ""}`, { project: "beta" });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.data.length).toBeLessThanOrEqual(3);
        for (const d of body.data) expect(d).toHaveProperty("status", "pending");
        seen.push(...body.data.map((d: DomainBody) => d.id));
        cursor = body.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...added].reverse());

      expect((await (await t.call("GET", "/v1/domains?status=verified", { project: "beta" })).json()).data).toEqual([]);
      expect((await (await t.call("GET", "/v1/domains?status=pending", { project: "beta" })).json()).data).toHaveLength(7);
      const bad = await t.call("GET", "/v1/domains?status=done", { project: "beta" });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.param).toBe("status");
    } finally {
      await t.close();
    }
  });

  it("takes the project from either header, requires one for an account-wide key, and refuses another project to a project key", async () => {
    expect((await svc.call("GET", "/v1/domains", { project: null, headers: { "X-Service-Sender": "beta" } })).status).toBe(200);
    const missing = await svc.call("GET", "/v1/domains", { project: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({ code: "project_required", param: "X-Service-Product" });
    const forbidden = await svc.call("GET", "/v1/domains", { key: svc.alphaKey, project: "beta" });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe("project_forbidden");
  });

  it("refuses a limit outside 1..100 and a forged cursor", async () => {
    for (const q of ["limit=0", "limit=101", "limit=x", "cursor=bm9wZQ"]) {
      const res = await svc.call("GET", `/v1/domains?${q}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.param).toBe(q.split("=")[0]);
    }
  });

  it("answers 401 without a key or with an unknown one", async () => {
    expect((await svc.app.request("/v1/domains")).status).toBe(401);
    expect((await svc.call("GET", "/v1/domains", { key: "sk_nope" })).status).toBe(401);
  });
});

describe("GET /v1/domains/{id}/receiving", () => {
  it("lists the MX record to publish; receiving starts disabled", async () => {
    const { id } = await (await svc.call("POST", "/v1/domains", { body: { domain: "inbox.org" } })).json();
    const res = await svc.call("GET", `/v1/domains/${id}/receiving`, { project: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      enabled: false,
      records: [{ type: "MX", name: "inbox.org", value: "inbound.mailservice.localhost", priority: 10, purpose: "receiving", verified: false }],
    });
  });

  it("answers 404 for an unknown id and for another project's domain", async () => {
    const unknown = await svc.call("GET", "/v1/domains/dom_00000000000000000000/receiving");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: "not_found", param: "id" });
    const { id } = await (await svc.call("POST", "/v1/domains", { project: "beta", body: { domain: "beta-inbox.org" } })).json();
    expect((await svc.call("GET", `/v1/domains/${id}/receiving`, { key: svc.alphaKey, project: null })).status).toBe(404);
    expect((await svc.call("GET", `/v1/domains/${id}/receiving`, { project: "alpha" })).status).toBe(404);
    expect((await svc.call("GET", `/v1/domains/${id}/receiving`, { project: "beta" })).status).toBe(200);
  });

  it("needs the domains:read scope", async () => {
    const { id } = await (await svc.call("POST", "/v1/domains", { body: { domain: "scoped-inbox.org" } })).json();
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "send", scopes: ["emails:send"] });
    expect((await svc.call("GET", `/v1/domains/${id}/receiving`, { key: secret })).status).toBe(403);
  });
});
