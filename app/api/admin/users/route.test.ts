import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { GET as AUDIT } from "../audit/route";
import { POST as RESET } from "./[id]/password/route";
import { PUT as PROJECTS } from "./[id]/projects/route";
import { DELETE as END_SESSIONS } from "./[id]/sessions/route";
import { PATCH } from "./[id]/route";
import { GET, POST } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let adminId: string;
let admin: string;
let marketer: string;
let staging: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  adminId = (await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id;
  admin = await sessionCookie(adminId);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "mk@example.com", role: "marketer", password: "correct horse battery" }), SYSTEM_ACTOR)).user.id);
  staging = (await registerProject({ externalId: "acme-staging" }, SYSTEM_ACTOR, { checkWithService: false })).id;
});
afterAll(() => dispose());

describe("/api/admin/users", () => {
  it("is for admins only", async () => {
    expect((await GET(await apiRequest("/api/admin/users", { cookie: marketer }), params({}))).status).toBe(403);
    expect((await AUDIT(await apiRequest("/api/admin/audit", { cookie: marketer }), params({}))).status).toBe(403);
    const list = await GET(await apiRequest("/api/admin/users", { cookie: admin }), params({}));
    const { data } = await list.json();
    expect(data.map((u: { email: string }) => u.email)).toEqual(["admin@example.com", "mk@example.com"]);
    expect(data[0]).toMatchObject({ allProjects: true, activeSessions: 1 });
    expect(JSON.stringify(data)).not.toContain("passwordHash");
  });

  it("creates a user with the projects chosen (none when not chosen), answering a generated password once", async () => {
    const res = await POST(await apiRequest("/api/admin/users", { method: "POST", cookie: admin, body: { email: "new@example.com", role: "support" } }), params({}));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toMatch(/^no-store\b/);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: "new@example.com", allProjects: false, projectIds: [] });
    expect(typeof body.password).toBe("string");
    const granted = await POST(
      await apiRequest("/api/admin/users", { method: "POST", cookie: admin, body: { email: "stg@example.com", role: "support", projectIds: [staging] } }),
      params({}),
    );
    expect((await granted.json()).user).toMatchObject({ allProjects: false, projectIds: [staging] });
    const bad = await POST(await apiRequest("/api/admin/users", { method: "POST", cookie: admin, body: { email: "x@example.com", role: "support", allProjects: "yes" } }), params({}));
    expect((await bad.json()).error).toMatchObject({ param: "allProjects", code: "validation_error" });
  });

  it("refuses an admin limited to some projects every admin route, so it cannot widen its own reach", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "stg-admin@example.com", role: "admin", password: "correct horse battery", projectIds: [staging] }), SYSTEM_ACTOR);
    const limited = await sessionCookie(user.id);
    const answers = [
      await GET(await apiRequest("/api/admin/users", { cookie: limited }), params({})),
      await POST(await apiRequest("/api/admin/users", { method: "POST", cookie: limited, body: { email: "friend@example.com", role: "admin", allProjects: true } }), params({})),
      await PUT_PROJECTS(limited, user.id, { allProjects: true }),
      await PATCH(await apiRequest(`/api/admin/users/${adminId}`, { method: "PATCH", cookie: limited, body: { active: false } }), params({ id: adminId })),
      await RESET(await apiRequest(`/api/admin/users/${adminId}/password`, { method: "POST", cookie: limited }), params({ id: adminId })),
      await END_SESSIONS(await apiRequest(`/api/admin/users/${adminId}/sessions`, { method: "DELETE", cookie: limited }), params({ id: adminId })),
      await AUDIT(await apiRequest("/api/admin/audit", { cookie: limited }), params({})),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.message).toMatch(/every project/);
    }
    const list = await (await GET(await apiRequest("/api/admin/users", { cookie: admin }), params({}))).json();
    expect(list.data.find((u: { email: string }) => u.email === "stg-admin@example.com")).toMatchObject({ allProjects: false, projectIds: [staging] });
    expect(list.data.some((u: { email: string }) => u.email === "friend@example.com")).toBe(false);
  });

  it("refuses an admin's change of its own project access", async () => {
    const res = await PUT_PROJECTS(admin, adminId, { allProjects: false, projectIds: [staging] });
    expect(res.status).toBe(409);
    expect((await res.json()).error.param).toBe("allProjects");
  });

  it("ends another user's sessions: their cookie stops working", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "laptop@example.com", role: "marketer", password: "correct horse battery" }), SYSTEM_ACTOR);
    const theirs = await sessionCookie(user.id);
    const before = await AUDIT(await apiRequest("/api/admin/audit", { cookie: theirs }), params({}));
    expect(before.status).toBe(403);
    const res = await END_SESSIONS(await apiRequest(`/api/admin/users/${user.id}/sessions`, { method: "DELETE", cookie: admin }), params({ id: user.id }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ended: 1 });
    const after = await AUDIT(await apiRequest("/api/admin/audit", { cookie: theirs }), params({}));
    expect(after.status).toBe(401);
    const missing = await END_SESSIONS(await apiRequest("/api/admin/users/nope/sessions", { method: "DELETE", cookie: admin }), params({ id: "nope" }));
    expect(missing.status).toBe(404);
  });

  it("names the field of a bad update, and protects the last admin", async () => {
    const bad = await PATCH(await apiRequest(`/api/admin/users/${adminId}`, { method: "PATCH", cookie: admin, body: { role: "owner" } }), params({ id: adminId }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ param: "role", code: "validation_error" });
    const empty = await PATCH(await apiRequest(`/api/admin/users/${adminId}`, { method: "PATCH", cookie: admin, body: {} }), params({ id: adminId }));
    expect(empty.status).toBe(400);
    const self = await PATCH(await apiRequest(`/api/admin/users/${adminId}`, { method: "PATCH", cookie: admin, body: { active: false } }), params({ id: adminId }));
    expect(self.status).toBe(409);
  });

  it("resets a password with a same-origin POST only", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "r@example.com", role: "support" }), SYSTEM_ACTOR);
    const cross = await RESET(await apiRequest(`/api/admin/users/${user.id}/password`, { method: "POST", cookie: admin, origin: "http://localhost:3000.evil.example" }), params({ id: user.id }));
    expect(cross.status).toBe(403);
    const res = await RESET(await apiRequest(`/api/admin/users/${user.id}/password`, { method: "POST", cookie: admin }), params({ id: user.id }));
    expect(res.status).toBe(200);
    expect((await res.json()).password).toMatch(/^[\w-]{24}$/);
  });

  it("sets project access, naming a bad entry", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "p@example.com", role: "support" }), SYSTEM_ACTOR);
    const res = await PROJECTS(
      await apiRequest(`/api/admin/users/${user.id}/projects`, { method: "PUT", cookie: admin, body: { allProjects: false, projectIds: ["nope"] } }),
      params({ id: user.id }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("projectIds.0");
    const bad = await PROJECTS(
      await apiRequest(`/api/admin/users/${user.id}/projects`, { method: "PUT", cookie: admin, body: { allProjects: "yes" } }),
      params({ id: user.id }),
    );
    expect((await bad.json()).error.param).toBe("allProjects");
  });

  it("lists the audit log with filters and validates them", async () => {
    const res = await AUDIT(await apiRequest("/api/admin/audit?action=user.create&limit=2", { cookie: admin }), params({}));
    const page = await res.json();
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const bad = await AUDIT(await apiRequest("/api/admin/audit?limit=500", { cookie: admin }), params({}));
    expect((await bad.json()).error).toMatchObject({ param: "limit", message: "limit: must be a whole number from 1 to 100" });
  });
});

async function PUT_PROJECTS(cookie: string, id: string, body: unknown) {
  return PROJECTS(await apiRequest(`/api/admin/users/${id}/projects`, { method: "PUT", cookie, body }), params({ id }));
}
