import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { getOverview } from "@/lib/server/overview";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import type { Project } from "@/lib/server/gate/guard";
import { GET as DETAIL } from "@/app/api/p/[project]/domains/[id]/route";
import { GET as LIST } from "./route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * A service whose domain list items carry no `status` (the interface shows it only on the
 * create answer), whose ids are numbers, and which ignores the status filter: the dashboard
 * derives each status from the records and applies the filter itself.
 */
const record = (verified: boolean) => ({ type: "TXT", name: "k._domainkey", value: "v=DKIM1", purpose: "dkim", verified });
const DOMAINS = [
  { id: 1, domain: "ready.example", createdAt: "2026-01-01T00:00:00Z", records: [record(true), record(true)] },
  { id: 2, domain: "waiting.example", createdAt: "2026-01-02T00:00:00Z", records: [record(true), record(false)] },
];

let service: TestServer;
let close: () => Promise<void>;
let admin: string;
let project: Project;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/domains") return json(res, 200, { data: DOMAINS });
    if (url.pathname === "/v1/domains/1/receiving") return json(res, 200, { enabled: false, records: [] });
    json(res, 404, { title: "Not Found" });
  }));
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", allProjects: true, password: "correct horse battery" }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

async function list(query = "") {
  service.requests.length = 0;
  const res = await LIST(await apiRequest(`/api/p/p1/domains${query}`, { cookie: admin }), params({ project: "p1" }));
  expect(res.status).toBe(200);
  return (await res.json()) as { data: { id: string; domain: string; status: string }[]; nextCursor: string | null };
}

describe("domain status derived from the records", () => {
  it("lists every domain with the status its records give", async () => {
    const page = await list();
    expect(page.data.map((d) => [d.id, d.status])).toEqual([["1", "verified"], ["2", "pending"]]);
    expect(page.nextCursor).toBeNull();
    // No default page size is assumed: the dashboard always asks for one.
    // (The list request itself: background work may have asked the service something first.)
    const asked = service.requests.map((r) => new URL(r.url, "http://x")).find((u) => u.pathname === "/v1/domains");
    expect(asked?.searchParams.get("limit")).toMatch(/^\d+$/);
  });

  it("passes the status filter to the service and applies it to what comes back", async () => {
    const verified = await list("?status=verified");
    expect(new URL(service.requests[0].url, "http://x").searchParams.get("status")).toBe("verified");
    expect(verified.data.map((d) => d.domain)).toEqual(["ready.example"]);
    expect((await list("?status=pending")).data.map((d) => d.domain)).toEqual(["waiting.example"]);
    expect((await list("?status=failed")).data).toEqual([]);
  });

  it("shows the domain screen verified", async () => {
    const res = await DETAIL(await apiRequest("/api/p/p1/domains/1", { cookie: admin }), params({ project: "p1", id: "1" }));
    expect((await res.json()).domain).toMatchObject({ id: "1", status: "verified" });
  });

  it("keeps a verified domain off the overview's unverified card", async () => {
    const overview = await getOverview(project);
    expect(overview.unverifiedDomains.map((d) => d.domain)).toEqual(["waiting.example"]);
  });
});
