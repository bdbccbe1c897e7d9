import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { tagsData } from "@/lib/schemas/insight-tags";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * GET /api/p/[project]/insight/tags through the real guard on the test database (PGlite, or
 * Postgres with TEST_DATABASE_URL): who may read it, the period's validation, one project's
 * tags only, rates judged against the project's thresholds.
 */
let close: () => Promise<void>;
const cookies: Record<string, string> = {};
const projects: Record<string, string> = {};

beforeAll(async () => {
  ({ close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "no", code: "not_found" } }), { ALERT_MIN_VOLUME: "2" }));
  for (const p of ["demo", "other"]) projects[p] = (await registerProject({ externalId: p }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false })).id;
  const people = [
    ["adm", "admin", true],
    ["sup", "support", true],
    ["mkt", "marketer", true],
    ["outsider", "marketer", false],
  ] as const;
  for (const [who, role, all] of people) {
    const { user } = await createUser(createUserRequest.parse({ email: `${who}@example.com`, role, allProjects: all, projectIds: all ? [] : [projects.other!] }), SYSTEM_ACTOR);
    cookies[who] = await sessionCookie(user.id);
  }
  const send = (project: string, id: string, value: string, status: string) =>
    recordSentMessages([
      {
        projectId: projects[project]!,
        messageId: id,
        request: { from: { email: "shop@acme.test" }, to: [{ email: `${id}@example.com` }], subject: "Hi", text: "x", tags: [{ name: "category", value }] },
        sentBy: null,
        idempotencyKey: null,
        source: "dashboard",
        status,
      },
    ]);
  // Password resets bounce (2 of 4: above the 4 % limit); invoices do not.
  for (const [i, status] of ["bounced", "bounced", "delivered", "delivered"].entries()) await send("demo", `reset-${i}`, "password-reset", status);
  for (let i = 0; i < 3; i++) await send("demo", `invoice-${i}`, "invoice", "delivered");
  await send("other", "other-1", "other-only", "delivered");
});
afterAll(() => close());

const get = async (who: string | null, query = "", project = "demo") => {
  const res = await GET(await apiRequest(`/api/p/${project}/insight/tags${query}`, { cookie: who ? cookies[who] : undefined }), params({ project }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { message: string; param?: string | null } } };
};

describe("GET /api/p/[project]/insight/tags", () => {
  it("answers each tag's figures and rates, judged against the thresholds, most sent first", async () => {
    const r = await get("mkt", "?range=24h");
    expect(r.status).toBe(200);
    const data = tagsData.parse(r.body);
    expect(data.range).toBe("24h");
    expect(data.tags.map((t) => `${t.name}=${t.value}`)).toEqual(["category=password-reset", "category=invoice"]);
    expect(data.tags[0]).toMatchObject({ sent: 4, delivered: 2, bounced: 2, bounceRate: 0.5, bounceLevel: "limit", other: false });
    expect(data.tags[1]).toMatchObject({ sent: 3, delivered: 3, bounced: 0, bounceRate: 0, bounceLevel: "ok", clickRate: 0 });
    expect(data.thresholds.bounceLimit).toBe(0.04);
  });

  it("is open to every role with the project, 404 to a user without it, 401 signed out", async () => {
    for (const who of ["adm", "sup", "mkt"]) expect((await get(who)).status).toBe(200);
    expect((await get("outsider")).status).toBe(404);
    expect((await get(null)).status).toBe(401);
    // The outsider's own project shows its own tags only.
    const other = tagsData.parse((await get("outsider", "", "other")).body);
    expect(other.tags.map((t) => t.value)).toEqual(["other-only"]);
  });

  it("refuses a range it does not know with a 400 naming it", async () => {
    const r = await get("mkt", "?range=1y");
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param: "range" });
    expect((await get("mkt")).body.range).toBe("7d");
  });
});
