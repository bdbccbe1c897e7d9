import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { PERMISSIONS, ROLES, can, type Permission, type Role } from "@/lib/permissions";
import { actorFromRequest, authorize, loadActor, type Actor } from "./access";
import { SYSTEM_ACTOR } from "./audit";
import { useTestDb } from "./db/test-db";
import { registerProject } from "./projects";
import { sessionCookie, setTestEnv } from "./test-helpers";
import { createUser, resetPassword, setUserProjects, updateUser } from "./users";

let dispose: () => Promise<void>;
const ids: Record<string, string> = {};
let projectA: string;
let projectB: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  for (const role of ROLES) {
    const { user } = await createUser({ email: `${role}@example.com`, role, password: "correct horse battery" }, SYSTEM_ACTOR);
    ids[role] = user.id;
  }
  projectA = (await registerProject({ externalId: "proj-a" }, SYSTEM_ACTOR, { checkWithService: false })).id;
  projectB = (await registerProject({ externalId: "proj-b" }, SYSTEM_ACTOR, { checkWithService: false })).id;
});
afterAll(() => dispose());

const actor = async (id: string) => loadActor({ sub: id, authAt: Date.now() });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof AppError) return e.status;
    throw e;
  }
}

/** The intended rights of each role, written out rather than derived from the map. */
const REFUSED: Record<Role, Permission[]> = {
  admin: [],
  support: ["batches:send", "templates:write", "contacts:write", "domains:write", "api_keys:write", "webhooks:read", "webhooks:write", "users:manage", "projects:manage", "audit:read"],
  marketer: ["messages:reply", "inbound:simulate", "recipients:erase", "suppressions:write", "domains:write", "api_keys:write", "webhooks:read", "webhooks:write", "users:manage", "projects:manage", "audit:read"],
};

describe("authorize", () => {
  for (const role of ROLES) {
    it(`${role}: every permission allowed or refused with 403 as intended`, async () => {
      const user = await actor(ids[role]);
      for (const permission of PERMISSIONS) {
        const expected = REFUSED[role].includes(permission) ? 403 : 200;
        expect(await status(authorize(user, permission)), `${role} ${permission}`).toBe(expected);
        expect(can(role, permission)).toBe(expected === 200);
      }
    });
  }

  it("401 without a user", async () => {
    expect(await status(authorize(null, "messages:read"))).toBe(401);
  });

  it("resolves a project and answers 404 for an unknown one", async () => {
    const user = await actor(ids.support);
    const { project } = await authorize(user, "messages:read", { project: "proj-a" });
    expect(project).toMatchObject({ externalId: "proj-a", id: projectA });
    expect(await status(authorize(user, "messages:read", { project: "nope" }))).toBe(404);
  });

  it("limits a user to granted projects; others look like they do not exist", async () => {
    await setUserProjects(ids.marketer, { allProjects: false, projectIds: [projectB] }, SYSTEM_ACTOR);
    const user = (await actor(ids.marketer)) as Actor;
    expect(user.projectIds).toEqual([projectB]);
    expect(await status(authorize(user, "templates:read", { project: "proj-b" }))).toBe(200);
    const refused = await authorize(user, "templates:read", { project: "proj-a" }).catch((e: AppError) => e);
    const unknown = await authorize(user, "templates:read", { project: "nope" }).catch((e: AppError) => e);
    expect([(refused as AppError).status, (refused as AppError).message]).toEqual([404, (unknown as AppError).message]);
    await setUserProjects(ids.marketer, { allProjects: true, projectIds: [] }, SYSTEM_ACTOR);
    expect(await status(authorize(await actor(ids.marketer), "templates:read", { project: "proj-a" }))).toBe(200);
  });

  it("permission is checked before the project (no project probing without the right)", async () => {
    const user = await actor(ids.support);
    expect(await status(authorize(user, "webhooks:write", { project: "nope" }))).toBe(403);
  });
});

describe("loadActor reads the database on every call", () => {
  it("a demotion applies at once", async () => {
    const { user } = await createUser({ email: "demote@example.com", role: "admin", password: "correct horse battery" }, SYSTEM_ACTOR);
    const before = await actor(user.id);
    expect(await status(authorize(before, "users:manage"))).toBe(200);
    await updateUser(user.id, { role: "support" }, { id: ids.admin, email: "admin@example.com" });
    expect(await status(authorize(await actor(user.id), "users:manage"))).toBe(403);
  });

  it("a disabled user is signed out at the next request", async () => {
    const { user } = await createUser({ email: "gone@example.com", role: "support", password: "correct horse battery" }, SYSTEM_ACTOR);
    expect(await actor(user.id)).not.toBeNull();
    await updateUser(user.id, { active: false }, { id: ids.admin, email: "admin@example.com" });
    expect(await actor(user.id)).toBeNull();
    expect(await status(authorize(await actor(user.id), "messages:read"))).toBe(401);
  });

  it("a password reset ends sessions that began before it", async () => {
    const { user } = await createUser({ email: "reset@example.com", role: "support", password: "correct horse battery" }, SYSTEM_ACTOR);
    const oldSession = Date.now() - 1000;
    await resetPassword(user.id, SYSTEM_ACTOR);
    expect(await loadActor({ sub: user.id, authAt: oldSession })).toBeNull();
    expect(await loadActor({ sub: user.id, authAt: Date.now() + 1 })).not.toBeNull();
  });

  it("unknown ids and empty sessions are nobody", async () => {
    expect(await loadActor({ sub: "nope" })).toBeNull();
    expect(await loadActor(null)).toBeNull();
  });
});

describe("actorFromRequest", () => {
  it("reads the real session cookie and ignores a forged one", async () => {
    const cookie = await sessionCookie(ids.support);
    const user = await actorFromRequest(new Request("http://localhost:3000/api/x", { headers: { cookie } }));
    expect(user?.role).toBe("support");
    const forged = await actorFromRequest(
      new Request("http://localhost:3000/api/x", { headers: { cookie: "authjs.session-token=eyJhbGciOiJkaXIifQ.x.y.z" } }),
    );
    expect(forged).toBeNull();
  });
});
