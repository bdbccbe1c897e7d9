import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import { zoneFileSnippet } from "@/lib/domains/records";
import { TWO_SPF } from "@/lib/server/domains/dns-compare";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import type { Project } from "@/lib/server/gate/guard";
import { GET as CHECK } from "@/app/api/p/[project]/domains/[id]/check/route";
import { GET as DETAIL } from "@/app/api/p/[project]/domains/[id]/route";
import { POST as ADD } from "./route";
import { checkDomain } from "@/lib/server/domains/manage";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * The domain functions against a real HTTP stand-in for the service and a real DNS server
 * (dns2) publishing some records right and some wrong, as admins get them wrong.
 */
const DKIM = `v=DKIM1; k=rsa; p=${"A".repeat(300)}`;
const DOMAIN = {
  id: "dom_1",
  domain: "example.org",
  status: "pending",
  createdAt: "2026-01-01T00:00:00Z",
  records: [
    { type: "TXT", name: "svc1._domainkey.example.org", value: DKIM, priority: null, purpose: "dkim", verified: false },
    { type: "TXT", name: "bounces.example.org", value: "v=spf1 include:spf.mailservice.localhost ~all", priority: null, purpose: "spf", verified: false },
    { type: "MX", name: "bounces.example.org", value: "feedback.mailservice.localhost", priority: 10, purpose: "return_path", verified: false },
    { type: "TXT", name: "_dmarc.example.org", value: "v=DMARC1; p=none;", priority: null, purpose: "dmarc", verified: false },
  ],
};
const RECEIVING = { enabled: false, records: [{ type: "MX", name: "example.org", value: "inbound.mailservice.localhost", priority: 10, purpose: "receiving", verified: false }] };

let dns: FakeDnsServer;
let service: TestServer;
let close: () => Promise<void>;
let admin: string;
let support: string;
let project: Project;
const added: string[] = [];

beforeAll(async () => {
  dns = await startFakeDnsServer({
    "svc1._domainkey.example.org": [{ type: "TXT", data: DKIM }],
    // Two SPF records at one name: the classic merge mistake.
    "bounces.example.org": [
      { type: "TXT", data: "v=spf1 include:spf.mailservice.localhost ~all" },
      { type: "TXT", data: "v=spf1 include:other.example ~all" },
      { type: "MX", exchange: "feedback.mailservice.localhost", priority: 10 },
    ],
    // DMARC typed with the domain twice in the host field.
    "_dmarc.example.org.example.org": [{ type: "TXT", data: "v=DMARC1; p=none;" }],
    "example.org": [{ type: "MX", exchange: "inbound.mailservice.localhost", priority: 10 }],
  });
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (req.method === "GET" && url.pathname === "/v1/domains") return json(res, 200, { data: [DOMAIN], nextCursor: null });
    if (req.method === "GET" && url.pathname === "/v1/domains/dom_1/receiving") return json(res, 200, RECEIVING);
    if (req.method === "POST" && url.pathname === "/v1/domains") {
      const { domain } = JSON.parse(req.body) as { domain: string };
      added.push(domain);
      return json(res, 201, { ...DOMAIN, id: "dom_2", domain });
    }
    json(res, 404, { error: { message: "not found", code: "not_found" } });
  }, { DNS_RESOLVER: dns.address }));
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(async () => {
  await close();
  await dns.close();
});

describe("live DNS check (checkDomain)", () => {
  it("compares every record with what the DNS server publishes and names the mistakes", async () => {
    const check = await checkDomain(project, "dom_1");
    expect(check.resolver).toBe(dns.address);
    const by = (purpose: string) => check.records.find((r) => r.record.purpose === purpose)!;
    expect(by("dkim").status).toBe("ok");
    expect(by("return_path").status).toBe("ok");
    expect(by("receiving").status).toBe("ok");
    expect(by("spf").status).toBe("mismatch");
    expect(by("spf").problems).toContain(TWO_SPF);
    expect(by("dmarc").status).toBe("missing");
    expect(by("dmarc").problems.join(" ")).toMatch(/typed twice.*"_dmarc"/);
  });

  it("is served by the check route to every role that may read domains", async () => {
    const res = await CHECK(await apiRequest("/api/p/p1/domains/dom_1/check", { cookie: support }), params({ project: "p1", id: "dom_1" }));
    expect(res.status).toBe(200);
    expect((await res.json()).records).toHaveLength(5);
  });
});

describe("domains routes", () => {
  it("finds one domain in the paged list (there is no get operation) and 404s an unknown id", async () => {
    const ok = await DETAIL(await apiRequest("/api/p/p1/domains/dom_1", { cookie: support }), params({ project: "p1", id: "dom_1" }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).receiving.records[0].purpose).toBe("receiving");
    const missing = await DETAIL(await apiRequest("/api/p/p1/domains/nope", { cookie: support }), params({ project: "p1", id: "nope" }));
    expect(missing.status).toBe(404);
  });

  it("validates the hostname before the service sees it and converts internationalised names", async () => {
    const bad = await ADD(await apiRequest("/api/p/p1/domains", { method: "POST", cookie: admin, body: { domain: "https://example.com/x" } }), params({ project: "p1" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ param: "domain", code: "validation_error" });
    expect(added).toEqual([]);
    const idn = await ADD(await apiRequest("/api/p/p1/domains", { method: "POST", cookie: admin, body: { domain: "Bücher.example." } }), params({ project: "p1" }));
    expect(idn.status).toBe(201);
    expect(added).toEqual(["xn--bcher-kva.example"]);
  });

  it("lets only admins add domains", async () => {
    const res = await ADD(await apiRequest("/api/p/p1/domains", { method: "POST", cookie: support, body: { domain: "x.example" } }), params({ project: "p1" }));
    expect(res.status).toBe(403);
  });
});

describe("zone-file export of the service's records", () => {
  it("writes relative hosts, split DKIM strings and absolute MX targets", () => {
    const zone = zoneFileSnippet(DOMAIN.domain, [...DOMAIN.records, ...RECEIVING.records]);
    expect(zone).toContain("$ORIGIN example.org.");
    expect(zone).toMatch(/^svc1\._domainkey\t3600\tIN\tTXT\t"v=DKIM1; k=rsa; p=A+" "A+"$/m);
    expect(zone).toMatch(/^bounces\t3600\tIN\tMX\t10 feedback\.mailservice\.localhost\.$/m);
    expect(zone).toMatch(/^@\t3600\tIN\tMX\t10 inbound\.mailservice\.localhost\.$/m);
    expect(zone).toMatch(/^_dmarc\t3600\tIN\tTXT\t"v=DMARC1; p=none;"$/m);
  });
});
