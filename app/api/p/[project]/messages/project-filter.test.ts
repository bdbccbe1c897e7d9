import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { FILTERS, indexMirroredMessages } from "@/lib/test/mirrored-messages";
import { GET } from "./route";
import { allPageIds } from "@/lib/test/page-ids";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * The messages route keeps to the project in its path, for a user who may open both projects:
 * every filter of the search, page by page, and a pasted id of the other project (which the
 * service, asked under this project, does not know).
 */
let close: () => Promise<void>;
let service: TestServer;
let both: string;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "Message not found", code: "not_found" } })));
  const alpha = await registerProject({ externalId: "alpha" }, SYSTEM_ACTOR, { checkWithService: false });
  const beta = await registerProject({ externalId: "beta" }, SYSTEM_ACTOR, { checkWithService: false });
  await indexMirroredMessages({ alpha: alpha.id, beta: beta.id });
  both = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", projectIds: [alpha.id, beta.id] }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

type Page = { data: { id: string }[]; nextCursor: string | null; openId: string | null };

async function list(project: string, query: Record<string, string | undefined>): Promise<Page> {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await GET(await apiRequest(`/api/p/${project}/messages?${qs}`, { cookie: both }), params({ project }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const allPages = (project: string, query: Record<string, string | undefined>) => allPageIds((cursor) => list(project, { ...query, limit: "1", cursor }));

describe("GET /api/p/[project]/messages keeps to its project", () => {
  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))("%s", async (_, filter) => {
    const query = filter as Record<string, string | undefined>;
    const alpha = (await list("alpha", query)).data.map((m) => m.id);
    const beta = (await list("beta", query)).data.map((m) => m.id);
    expect(alpha.length).toBeGreaterThan(0);
    expect(alpha.every((id) => id.startsWith("alpha-")), alpha.join()).toBe(true);
    expect(beta.map((id) => id.replace("beta-", "alpha-"))).toEqual(alpha);
    expect(await allPages("alpha", query)).toEqual(alpha);
  });

  it("a pasted id of the other project opens nothing and lists nothing", async () => {
    for (const id of ["beta-out-0001", "beta-in-0004"]) expect(await list("alpha", { q: id })).toEqual({ data: [], nextCursor: null, openId: null, problems: [] });
    expect(await list("alpha", { q: "alpha-out-0001" })).toMatchObject({ data: [{ id: "alpha-out-0001" }], openId: "alpha-out-0001" });
  });
});
