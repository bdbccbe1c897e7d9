import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { dmarcJobs } from "@/lib/server/db/schema/dmarc";
import { parseReport } from "@/lib/server/dmarc/parse";
import { storeReport } from "@/lib/server/dmarc/store";
import { unpackReport } from "@/lib/server/dmarc/unpack";
import type { Project } from "@/lib/server/gate/guard";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { googleReport, microsoftReport, SAMPLE_ROWS, yahooReport } from "@/lib/test/dmarc-samples";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import { dmarcView } from "@/lib/schemas/dmarc";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/** The DMARC view over stored reports, the published record from a real DNS server, and the guard. */
const DOMAIN = { id: "dom_1", domain: "example.org", status: "verified", createdAt: "2026-01-01T00:00:00Z", records: [] };
const OTHERS = ["dom_2", "dom_3"].map((id, i) => ({ ...DOMAIN, id, domain: `in${i + 2}.example.net` }));
/** Which domains receive mail (the interface's receiving state): tests change it. */
let receives: Record<string, boolean> = { dom_1: true };
let dns: FakeDnsServer;
let service: TestServer;
let close: () => Promise<void>;
let support: string;
let project: Project;

beforeAll(async () => {
  dns = await startFakeDnsServer({ "_dmarc.example.org": [{ type: "TXT", data: "v=DMARC1; p=none; rua=mailto:dmarc@example.org" }] });
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (req.method === "GET" && url.pathname === "/v1/domains") return json(res, 200, { data: [DOMAIN, ...OTHERS], nextCursor: null });
    const receiving = /^\/v1\/domains\/(dom_\d)\/receiving$/.exec(url.pathname);
    if (req.method === "GET" && receiving) return json(res, 200, { enabled: receives[receiving[1]!] ?? false, records: [] });
    json(res, 404, { error: { message: "not found", code: "not_found" } });
  }, { DNS_RESOLVER: dns.address }));
  void service;
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  const d = await db();
  for (const sample of [googleReport("example.org", SAMPLE_ROWS), microsoftReport("example.org", SAMPLE_ROWS), yahooReport("example.org", SAMPLE_ROWS)]) {
    await storeReport(d, project.id, "msg", await parseReport(await unpackReport(sample.bytes)));
  }
  // Another domain's report stays out of this domain's view.
  await storeReport(d, project.id, "msg", await parseReport(yahooReport("other.example", SAMPLE_ROWS, "other-1").xml));
});
afterAll(async () => {
  await close?.();
  await dns?.close();
});

const get = async (id = "dom_1", cookie = support) => GET(await apiRequest(`/api/p/p1/domains/${id}/dmarc`, { cookie }), params({ project: "p1", id }));

describe("GET /api/p/[project]/domains/[id]/dmarc", () => {
  it("sums the domain's reports per day and per source, flags the failing source and says what to do", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const view = dmarcView.parse(await res.json());
    expect(view).toMatchObject({ domain: "example.org", reports: 3, messages: 471, passing: 450, policy: "none" });
    expect(view.rua).toMatchObject({ suggested: "dmarc@example.org", receiving: true, carries: true, policy: "none", lookupError: null });
    expect(view.daily).toHaveLength(1);
    expect(view.daily[0]).toMatchObject({ pass: 450, fail: 21 });
    // One group per source and reporter: three reporters saw three sources.
    expect(view.sources).toHaveLength(9);
    expect(view.sources[0]).toMatchObject({ ip: "209.85.220.41", count: 120, dkimAligned: true, flag: null });
    const failing = view.sources.filter((s) => s.flag);
    expect(failing.map((s) => s.ip)).toEqual(["203.0.113.9", "203.0.113.9", "203.0.113.9"]);
    expect(failing[0]!.flag).toMatchObject({ cause: "forgotten_sender", text: expect.stringContaining("mailer.example") });
    expect(view.advice.step).toBe("fix");
  });

  it("counts the project's report mails a cap kept out, with the latest reason", async () => {
    expect(dmarcView.parse(await (await get()).json()).skipped).toEqual({ count: 0, latest: null });
    const d = await db();
    await d.insert(dmarcJobs).values([
      { projectId: project.id, messageId: "m-old", outcome: "skipped", lastError: "older reason", createdAt: new Date(Date.now() - 60_000) },
      { projectId: project.id, messageId: "m-new", outcome: "skipped", lastError: "The project holds 5000 DMARC reports, its cap." },
      { projectId: project.id, messageId: "m-stored", outcome: "stored" },
    ]);
    expect(dmarcView.parse(await (await get()).json()).skipped).toEqual({ count: 2, latest: "The project holds 5000 DMARC reports, its cap." });
  });

  it("suggests the rua on a domain of the project that receives mail, with the record that lets it take the reports", async () => {
    expect(dmarcView.parse(await (await get()).json()).rua).toMatchObject({ suggested: "dmarc@example.org", receiving: true, authorization: null });
    receives = { dom_1: false, dom_2: false, dom_3: true };
    expect(dmarcView.parse(await (await get()).json()).rua).toMatchObject({
      suggested: "dmarc@in3.example.net",
      receiving: true,
      authorization: { name: "example.org._report._dmarc.in3.example.net", value: "v=DMARC1" },
    });
    // None receives: the domain itself, as before, said not to receive.
    receives = {};
    expect(dmarcView.parse(await (await get()).json()).rua).toMatchObject({ suggested: "dmarc@example.org", receiving: false, authorization: null });
    receives = { dom_1: true };
  });

  it("404s an unknown domain and refuses the signed-out", async () => {
    expect((await get("dom_9")).status).toBe(404);
    expect((await GET(await apiRequest("/api/p/p1/domains/dom_1/dmarc"), params({ project: "p1", id: "dom_1" }))).status).toBe(401);
  });

  it("says so when the published record lacks the address", async () => {
    dns.setZone({ "_dmarc.example.org": [{ type: "TXT", data: "v=DMARC1; p=quarantine" }] });
    const view = dmarcView.parse(await (await get()).json());
    expect(view.rua).toMatchObject({ carries: false, policy: "quarantine", published: "v=DMARC1; p=quarantine" });
    dns.setZone({});
    expect(dmarcView.parse(await (await get()).json()).rua).toMatchObject({ carries: false, published: null });
  });
});
