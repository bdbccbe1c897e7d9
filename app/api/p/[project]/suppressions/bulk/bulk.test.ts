import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import type { Project } from "@/lib/server/gate/guard";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { settleRunningJobs } from "@/lib/server/batches/runner";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { POST as CHECK } from "./check/route";
import { GET as JOB } from "./[id]/route";
import { GET as LIST, POST as START } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/** The bulk suppression routes: their bounds, checked before the service is asked anything, and who may use them. */
let service: TestServer;
let close: () => Promise<void>;
let project: Project;
let support: string;
let marketer: string;
const added: string[] = [];

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/suppressions" && req.method === "GET") return json(res, 200, { data: [{ email: "old@example.com", reason: "bounce", createdAt: "2026-01-01T00:00:00Z" }], nextCursor: null });
    if (url.pathname === "/v1/suppressions" && req.method === "POST") {
      const body = JSON.parse(req.body) as { email: string; reason: string };
      added.push(body.email);
      return json(res, 201, { ...body, createdAt: "2026-01-04T00:00:00Z" });
    }
    json(res, 404, {});
  }));
  // Without the event stream, which these tests do not need: its connection runs in the background
  // after registration, and on Postgres its POST /v1/webhooks could land among a test's requests.
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const user = async (email: string, role: "support" | "marketer") => sessionCookie((await createUser(createUserRequest.parse({ email, role, password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await user("s@example.com", "support");
  marketer = await user("m@example.com", "marketer");
});
afterAll(async () => {
  await settleRunningJobs();
  await close();
});
beforeEach(() => {
  service.requests.length = 0;
});

const P = { project: "p1" };
const check = async (cookie: string, body: unknown) => CHECK(await apiRequest("/api/p/p1/suppressions/bulk/check", { method: "POST", cookie, body }), params(P));
const start = async (cookie: string, body: unknown) => START(await apiRequest("/api/p/p1/suppressions/bulk", { method: "POST", cookie, body }), params(P));

async function refused(res: Response, status: number, param?: string) {
  expect(res.status).toBe(status);
  const { error } = (await res.json()) as { error: { param?: string; message: string } };
  if (param) expect(error.param).toBe(param);
  return error.message;
}

describe("bounds, before any work", () => {
  it("refuses more than 10,000 addresses, naming csv and the line, without asking the service", async () => {
    const csv = ["email", ...Array.from({ length: 10_001 }, (_, i) => `a${i}@example.com`)].join("\n");
    expect(await refused(await check(support, { csv }), 400, "csv")).toMatch(/more than 10,001 lines \(line 10,002\)/);
    expect(await refused(await start(support, { csv, confirmCount: 10_001 }), 400, "csv")).toMatch(/more than 10,001 lines/);
    expect(service.requests).toEqual([]);
  });

  it("refuses a line longer than 1,000 characters and a list over 10 MB, naming csv", async () => {
    expect(await refused(await check(support, { csv: `ok@example.com\n${"x".repeat(1_001)}@example.com` }), 400, "csv")).toMatch(/line 2 is longer than 1,000 characters/);
    expect(await refused(await check(support, { csv: "a".repeat(10 * 1024 * 1024 + 1) }), 400, "csv")).toMatch(/larger than 10 MB/);
    expect(service.requests).toEqual([]);
  });

  it("refuses a default reason the interface does not have, naming reason", async () => {
    await refused(await check(support, { csv: "a@example.com", reason: "spite" }), 400, "reason");
    await refused(await start(support, { csv: "a@example.com", reason: "manual" }), 400, "confirmCount");
  });

  it("takes 10,000 addresses and a header line, reading the service's list once for the check", async () => {
    const csv = ["email", ...Array.from({ length: 10_000 }, (_, i) => `a${i}@example.com`)].join("\r\n");
    const res = await check(support, { csv });
    expect(res.status).toBe(200);
    expect((await res.json()).summary).toMatchObject({ total: 10_000, toSend: 10_000 });
    expect(service.requests.map((r) => `${r.method} ${new URL(r.url, "http://x").pathname}`)).toEqual(["GET /v1/suppressions"]);
  });
});

describe("permissions", () => {
  it("takes the permission of adding one suppression: marketers are refused every route", async () => {
    for (const cookie of [marketer]) {
      expect((await check(cookie, { csv: "a@example.com" })).status).toBe(403);
      expect((await start(cookie, { csv: "a@example.com", confirmCount: 1 })).status).toBe(403);
      expect((await LIST(await apiRequest("/api/p/p1/suppressions/bulk", { cookie }), params(P))).status).toBe(403);
    }
    expect(service.requests).toEqual([]);
  });

  it("lets support check and start a job, which adds the new addresses and notes the old", async () => {
    const body = { csv: "new@example.com\nold@example.com\nnew@example.com\nnope", fileName: "list.txt" };
    const checked = (await (await check(support, body)).json()) as { summary: Record<string, number>; problems: { row: number; status: string }[] };
    expect(checked.summary).toEqual({ total: 4, toSend: 1, invalid: 1, suppressed: 1, duplicate: 1 });
    expect(checked.problems.map((p) => [p.row, p.status])).toEqual([[2, "suppressed"], [3, "duplicate"], [4, "invalid"]]);
    const res = await start(support, { ...body, confirmCount: 1 });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await settleRunningJobs();
    const job = await (await JOB(await apiRequest(`/api/p/p1/suppressions/bulk/${id}`, { cookie: support }), params({ ...P, id }))).json();
    expect(job).toMatchObject({ kind: "suppressions", status: "done", fileName: "list.txt", counts: { sent: 1, suppressed: 1, duplicate: 1, invalid: 1 } });
    expect(added).toEqual(["new@example.com"]);
    expect((await JOB(await apiRequest(`/api/p/p1/suppressions/bulk/${id}`, { cookie: marketer }), params({ ...P, id }))).status).toBe(403);
  });
});
