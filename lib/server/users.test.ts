import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { listAudit, SYSTEM_ACTOR } from "./audit";
import { verifyPassword } from "./auth/password";
import { db } from "./db";
import { users } from "./db/schema/core";
import { useTestDb } from "./db/test-db";
import { registerProject } from "./projects";
import { setTestEnv } from "./test-helpers";
import { createUser, ensureFirstAdmin, listUsers, resetPassword, setUserProjects, updateUser } from "./users";
import { eq } from "drizzle-orm";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;

beforeAll(async () => {
  setTestEnv({ ADMIN_EMAIL: "Root@Example.com", ADMIN_PASSWORD: undefined });
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

async function fails(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

async function hashOf(id: string) {
  const d = await db();
  const [row] = await d.select().from(users).where(eq(users.id, id));
  return row.passwordHash!;
}

describe("ensureFirstAdmin", () => {
  it("creates the first admin once, printing a generated password once", async () => {
    const lines: string[] = [];
    await ensureFirstAdmin((l) => lines.push(l));
    await ensureFirstAdmin((l) => lines.push(l));
    expect(lines).toHaveLength(1);
    const password = /password: (\S+)/.exec(lines[0])![1];
    const [admin] = await listUsers();
    // The first admin has every project: someone must be able to manage the rest.
    expect(admin).toMatchObject({ email: "root@example.com", role: "admin", active: true, allProjects: true });
    expect(await verifyPassword(password, await hashOf(admin.id))).toBe(true);
  });
});

describe("users", () => {
  it("creates a user with a generated password shown once, and refuses a duplicate email", async () => {
    const [admin] = await listUsers();
    const { user, password } = await createUser(createUserRequest.parse({ email: "Sam@Example.com", name: "Sam", role: "support" }), admin);
    // No project unless chosen at creation.
    expect(user).toMatchObject({ email: "sam@example.com", name: "Sam", role: "support", allProjects: false, projectIds: [], activeSessions: 0 });
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await verifyPassword(password!, await hashOf(user.id))).toBe(true);
    const dup = await fails(createUser(createUserRequest.parse({ email: "sam@example.com", role: "marketer" }), admin));
    expect([dup.status, dup.param]).toEqual([409, "email"]);
    const given = await createUser(createUserRequest.parse({ email: "kim@example.com", role: "marketer", password: "a long given password" }), admin);
    expect(given.password).toBeNull();
    const audit = await listAudit(auditQuery.parse({ action: "user.create", actorId: admin.id }));
    // Newest first: kim, the refused duplicate, sam.
    expect(audit.data.map((e) => [e.target, e.outcome])).toEqual([
      ["kim@example.com", "success"],
      ["sam@example.com", "failure"],
      ["sam@example.com", "success"],
    ]);
    expect(JSON.stringify(audit)).not.toContain(password!);
  });

  it("validates input with field names (the shared schema the route reads the body with)", () => {
    const e = createUserRequest.safeParse({ email: "x@example.com", role: "boss" });
    expect(e.success).toBe(false);
    expect(e.error?.issues[0].path).toEqual(["role"]);
  });

  it("creates a user with the projects chosen, and names an unknown one by index", async () => {
    const [admin] = await listUsers();
    const p = await registerProject({ externalId: "news", name: "News" }, SYSTEM_ACTOR, { checkWithService: false });
    const { user } = await createUser(createUserRequest.parse({ email: "ned@example.com", role: "marketer", projectIds: [p.id] }), admin);
    expect(user).toMatchObject({ allProjects: false, projectIds: [p.id] });
    expect((await listUsers()).find((u) => u.id === user.id)).toMatchObject({ projectIds: [p.id] });
    const all = await createUser(createUserRequest.parse({ email: "alma@example.com", role: "support", allProjects: true, projectIds: [p.id] }), admin);
    expect(all.user).toMatchObject({ allProjects: true, projectIds: [] });
    const bad = await fails(createUser(createUserRequest.parse({ email: "bad@example.com", role: "support", projectIds: [p.id, "nope"] }), admin));
    expect([bad.status, bad.param]).toEqual([400, "projectIds.1"]);
    expect((await listUsers()).some((u) => u.email === "bad@example.com")).toBe(false);
    const entry = (await listAudit(auditQuery.parse({ action: "user.create", outcome: "success" }))).data[0];
    expect(entry).toMatchObject({ target: "alma@example.com", detail: { role: "support", allProjects: true, projects: [] } });
  });

  it("never leaves the dashboard without an active admin with every project", async () => {
    const all = await listUsers();
    const root = all.find((u) => u.email === "root@example.com")!;
    const sam = all.find((u) => u.email === "sam@example.com")!;
    // The only admin cannot be demoted, disabled or limited, by anyone.
    await updateUser(sam.id, { role: "admin" }, root);
    await updateUser(sam.id, { active: false }, root);
    const limit = await fails(setUserProjects(root.id, { allProjects: false, projectIds: [] }, SYSTEM_ACTOR));
    expect([limit.status, limit.code, limit.param]).toEqual([409, "last_admin", "allProjects"]);
    const demote = await fails(updateUser(root.id, { role: "support" }, sam));
    expect([demote.status, demote.code, demote.param]).toEqual([409, "last_admin", "role"]);
    const disable = await fails(updateUser(root.id, { active: false }, SYSTEM_ACTOR));
    expect([disable.code, disable.param]).toEqual(["last_admin", "active"]);
    // An active admin limited to some projects does not count.
    await updateUser(sam.id, { active: true }, root);
    expect((await fails(updateUser(root.id, { role: "marketer" }, sam))).code).toBe("last_admin");
    // With a second active admin with every project it works.
    await setUserProjects(sam.id, { allProjects: true, projectIds: [] }, root);
    expect(await updateUser(root.id, { role: "marketer" }, sam)).toMatchObject({ role: "marketer" });
    const back = await updateUser(root.id, { role: "admin" }, sam);
    expect(back.role).toBe("admin");
    const failed = await listAudit(auditQuery.parse({ action: "user.update", outcome: "failure" }));
    expect(failed.data.length).toBeGreaterThanOrEqual(2);
  });

  it("refuses to disable, re-role or re-grant yourself", async () => {
    const root = (await listUsers()).find((u) => u.email === "root@example.com")!;
    expect((await fails(updateUser(root.id, { active: false }, root))).param).toBe("active");
    expect((await fails(updateUser(root.id, { role: "support" }, root))).param).toBe("role");
    const grants = await fails(setUserProjects(root.id, { allProjects: true, projectIds: [] }, root));
    expect([grants.status, grants.param]).toEqual([409, "allProjects"]);
    expect(await updateUser(root.id, { name: "Root" }, root)).toMatchObject({ name: "Root" });
  });

  it("resets a password: a new one shown once, the old one stops working", async () => {
    const kim = (await listUsers()).find((u) => u.email === "kim@example.com")!;
    const { password } = await resetPassword(kim.id, SYSTEM_ACTOR);
    const hash = await hashOf(kim.id);
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword("a long given password", hash)).toBe(false);
  });

  it("grants projects and refuses unknown project ids by index", async () => {
    const kim = (await listUsers()).find((u) => u.email === "kim@example.com")!;
    const p = await registerProject({ externalId: "shop", name: "Shop" }, SYSTEM_ACTOR, { checkWithService: false });
    const updated = await setUserProjects(kim.id, { allProjects: false, projectIds: [p.id, p.id] }, SYSTEM_ACTOR);
    expect(updated).toMatchObject({ allProjects: false, projectIds: [p.id] });
    const e = await fails(setUserProjects(kim.id, { allProjects: false, projectIds: [p.id, "nope"] }, SYSTEM_ACTOR));
    expect([e.status, e.param]).toEqual([400, "projectIds.1"]);
    const entry = (await listAudit(auditQuery.parse({ action: "user.projects", outcome: "success" }))).data[0];
    expect(entry.detail).toEqual({ allProjects: false, projects: ["shop"] });
  });

  it("answers 404 for an unknown user", async () => {
    expect((await fails(updateUser("nope", { name: "x" }, SYSTEM_ACTOR))).status).toBe(404);
    expect((await fails(resetPassword("nope", SYSTEM_ACTOR))).status).toBe(404);
  });
});
