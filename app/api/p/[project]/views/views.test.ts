import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { listAudit, SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { registerProject, removeProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser, setUserProjects } from "@/lib/server/users";
import { SAVED_VIEW_LIMITS } from "@/lib/schemas/saved-views";
import { SEARCH_QUERY_LIMITS } from "@/lib/messages/search-query/limits";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { GET, POST } from "./route";
import { DELETE, PATCH } from "./[viewId]/route";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Saved views (issue 28) through their routes, on the test database: PGlite, or Postgres when
 * TEST_DATABASE_URL is set. Real users, sessions, guard and audit log.
 */
let close: () => Promise<void>;
const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};
const projects: Record<string, string> = {};

beforeAll(async () => {
  ({ close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "no", code: "not_found" } })));
  for (const p of ["demo", "other", "gone"]) projects[p] = (await registerProject({ externalId: p }, SYSTEM_ACTOR, { checkWithService: false })).id;
  const people = [
    ["ann", "support", true],
    ["bob", "marketer", true],
    ["adm", "admin", true],
    ["cat", "support", false],
  ] as const;
  for (const [who, role, all] of people) {
    const { user } = await createUser(createUserRequest.parse({ email: `${who}@example.com`, role, allProjects: all, projectIds: all ? [] : [projects.demo] }), SYSTEM_ACTOR);
    ids[who] = user.id;
    cookies[who] = await sessionCookie(user.id);
  }
});
afterAll(() => close());

type Body = Record<string, unknown> & { error?: { param?: string | null; message: string; code: string } };
async function call<P extends { project: string }>(
  handler: (req: Awaited<ReturnType<typeof apiRequest>>, ctx: { params: Promise<P> }) => Promise<Response>,
  who: string,
  path: string,
  p: P,
  method = "GET",
  body?: unknown,
) {
  const res = await handler(await apiRequest(path, { method, cookie: cookies[who], body }), params(p));
  return { status: res.status, body: (res.status === 204 ? null : await res.json()) as Body };
}
const list = (who: string, project = "demo") => call(GET, who, `/api/p/${project}/views`, { project });
const save = (who: string, body: unknown, project = "demo") => call(POST, who, `/api/p/${project}/views`, { project }, "POST", body);
const patch = (who: string, id: string, body: unknown, project = "demo") =>
  call(PATCH, who, `/api/p/${project}/views/${id}`, { project, viewId: id }, "PATCH", body);
const remove = (who: string, id: string, project = "demo") => call(DELETE, who, `/api/p/${project}/views/${id}`, { project, viewId: id }, "DELETE");
const names = async (who: string, project = "demo") => ((await list(who, project)).body.data as { name: string }[]).map((v) => v.name);
const auditOf = async (action: string) => (await listAudit(auditQuery.parse({ action }))).data;

describe("saving and listing", () => {
  it("keeps the search as its URL text (no cursor), private by default, and lists it to its owner only", async () => {
    const r = await save("ann", { name: "Bounces to Ada", state: { q: "to:ada@example.com status:bounced", direction: "outbound" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Bounces to Ada", shared: false, mine: true, canManage: true, owner: "ann@example.com" });
    expect(r.body.query).toBe("q=to%3Aada%40example.com+status%3Abounced&direction=outbound");
    expect(await names("ann")).toEqual(["Bounces to Ada"]);
    expect(await names("bob")).toEqual([]);
    // Private views are not audited.
    expect(await auditOf("saved_view.create")).toEqual([]);
  });

  it("a shared view is listed to everyone who can read the project's messages, and audited", async () => {
    const r = await save("ann", { name: "Team failures", shared: true, state: { status: "failed" } });
    expect(r.status).toBe(201);
    expect(await names("bob")).toEqual(["Team failures"]);
    const seen = ((await list("bob")).body.data as { mine: boolean; canManage: boolean }[])[0];
    expect(seen).toMatchObject({ mine: false, canManage: false });
    const [entry] = await auditOf("saved_view.create");
    expect(entry).toMatchObject({ actorEmail: "ann@example.com", project: "demo", target: "Team failures", outcome: "success" });
  });

  it("views stay in their project", async () => {
    expect(await names("ann", "other")).toEqual([]);
    expect((await save("ann", { name: "Other's", shared: true, state: {} }, "other")).status).toBe(201);
    expect(await names("bob")).not.toContain("Other's");
  });

  it("refuses a bad name, a taken name and a search past the search's own limits with a 4xx naming the field", async () => {
    const tooLong = await save("ann", { name: "x".repeat(SAVED_VIEW_LIMITS.nameMaxLength + 1), state: {} });
    expect([tooLong.status, tooLong.body.error?.param]).toEqual([400, "name"]);
    const empty = await save("ann", { name: "  ", state: {} });
    expect([empty.status, empty.body.error?.param]).toEqual([400, "name"]);
    const taken = await save("ann", { name: "Bounces to Ada", state: {} });
    expect([taken.status, taken.body.error?.code, taken.body.error?.param]).toEqual([409, "name_taken", "name"]);
    // Another user may use the same name.
    expect((await save("bob", { name: "Bounces to Ada", state: {} })).status).toBe(201);
    const longQ = await save("ann", { name: "long", state: { q: "a".repeat(SEARCH_QUERY_LIMITS.maxLength + 1) } });
    expect([longQ.status, longQ.body.error?.param]).toEqual([400, "state.q"]);
    const badStatus = await save("ann", { name: "bad", state: { status: "nope" } });
    expect([badStatus.status, badStatus.body.error?.param]).toEqual([400, "state.status"]);
  });

  it(`refuses the view past ${SAVED_VIEW_LIMITS.perUserAndProject} per user and project with a 409 naming the limit`, async () => {
    const have = (await names("bob")).filter((n) => n !== "Team failures").length;
    const d = await db();
    const rows = Array.from({ length: SAVED_VIEW_LIMITS.perUserAndProject - have }, (_, i) => sql`(${`fill-${i}`}, ${projects.demo}, ${ids.bob}, ${`Fill ${i}`}, '')`);
    await d.execute(sql`insert into saved_views (id, project_id, owner_id, name, state) values ${sql.join(rows, sql`, `)}`);
    const r = await save("bob", { name: "One too many", state: {} });
    expect([r.status, r.body.error?.code]).toEqual([409, "limit_reached"]);
    expect(r.body.error?.message).toContain(String(SAVED_VIEW_LIMITS.perUserAndProject));
    // Per project: the same user still saves elsewhere.
    expect((await save("bob", { name: "One too many", state: {} }, "other")).status).toBe(201);
    await d.execute(sql`delete from saved_views where id like 'fill-%'`);
  });
});

describe("changing views", () => {
  const idOf = async (who: string, name: string) => ((await list(who)).body.data as { id: string; name: string }[]).find((v) => v.name === name)!.id;

  it("only the owner renames or deletes a private view; to others it does not exist", async () => {
    const id = await idOf("ann", "Bounces to Ada");
    expect((await patch("bob", id, { name: "Mine now" })).status).toBe(404);
    expect((await patch("adm", id, { name: "Mine now" })).status).toBe(404);
    expect((await remove("bob", id)).status).toBe(404);
    const renamed = await patch("ann", id, { name: "Ada's bounces" });
    expect([renamed.status, renamed.body.name]).toEqual([200, "Ada's bounces"]);
    expect(await auditOf("saved_view.update")).toEqual([]);
  });

  it("sharing a private view is audited, and then others see it", async () => {
    const id = await idOf("ann", "Ada's bounces");
    expect((await patch("ann", id, { shared: true })).status).toBe(200);
    expect(await names("bob")).toContain("Ada's bounces");
    const [entry] = await auditOf("saved_view.update");
    expect(entry).toMatchObject({ actorEmail: "ann@example.com", target: "Ada's bounces", detail: { shared: true }, outcome: "success" });
  });

  it("another user may not change a shared view (403); an admin may, audited", async () => {
    const id = await idOf("ann", "Team failures");
    expect((await patch("bob", id, { name: "Bob's" })).status).toBe(403);
    expect((await remove("bob", id)).status).toBe(403);
    const renamed = await patch("adm", id, { name: "Failures" });
    expect([renamed.status, renamed.body.name, renamed.body.owner]).toEqual([200, "Failures", "ann@example.com"]);
    expect((await remove("adm", id)).status).toBe(204);
    expect(await names("ann")).not.toContain("Failures");
    const [entry] = await auditOf("saved_view.delete");
    expect(entry).toMatchObject({ actorEmail: "adm@example.com", target: "Failures", outcome: "success" });
  });

  it("a rename to a name the owner already uses is a 409 naming name", async () => {
    await save("ann", { name: "Second", state: {} });
    const r = await patch("ann", await idOf("ann", "Second"), { name: "Ada's bounces" });
    expect([r.status, r.body.error?.param]).toEqual([409, "name"]);
  });

  it("a malformed view id is a 400 naming it; an unknown one a 404", async () => {
    expect((await remove("ann", "bad id!")).body.error?.param).toBe("viewId");
    expect((await remove("ann", "no-such-view")).status).toBe(404);
  });
});

describe("access and removal", () => {
  it("a user who loses the project no longer sees its views", async () => {
    expect((await save("cat", { name: "Cat's", state: {} })).status).toBe(201);
    expect(await names("cat")).toContain("Ada's bounces");
    await setUserProjects(ids.cat, { allProjects: false, projectIds: [projects.other] }, SYSTEM_ACTOR);
    expect((await list("cat")).status).toBe(404);
  });

  it("a view goes with its owner and with its project", async () => {
    const d = await db();
    const countOf = async (where: ReturnType<typeof sql>) => rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from saved_views where ${where}`))[0].n;
    expect(await countOf(sql`owner_id = ${ids.cat}`)).toBe(1);
    await d.execute(sql`delete from users where id = ${ids.cat}`);
    expect(await countOf(sql`owner_id = ${ids.cat}`)).toBe(0);
    await save("ann", { name: "Doomed", state: {} }, "gone");
    expect(await countOf(sql`project_id = ${projects.gone}`)).toBe(1);
    await removeProject(projects.gone, SYSTEM_ACTOR);
    expect(await countOf(sql`project_id = ${projects.gone}`)).toBe(0);
  });
});
