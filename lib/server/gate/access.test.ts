import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { PERMISSIONS, ROLES, can, type Permission, type Role } from "@/lib/permissions";
import { actorFromRequest, authorize, loadActor, loadActorAndProject, type Actor } from "./access";
import { listAudit, SYSTEM_ACTOR } from "../audit";
import { createSession, forgetTouchedSessions, LAST_SEEN_EVERY_MS, revokeSession, revokeUserSessions } from "../auth/sessions";
import { db } from "../db";
import { sessions } from "../db/schema/sessions";
import { useTestDb } from "../db/test-db";
import { registerProject } from "../projects";
import { sessionCookie, sessionCookieFor, setTestEnv } from "../test-helpers";
import { createUser, endUserSessions, resetPassword, setUserProjects, updateUser } from "../users";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
const ids: Record<string, string> = {};
let projectA: string;
let projectB: string;
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  setTestEnv({ SESSION_MAX_AGE_S: String(7 * 24 * 60 * 60), SESSION_IDLE_S: String(12 * 60 * 60) });
  ({ dispose } = await useTestDb());
  for (const role of ROLES) {
    const { user } = await createUser(createUserRequest.parse({ email: `${role}@example.com`, role, password: PASSWORD, allProjects: true }), SYSTEM_ACTOR);
    ids[role] = user.id;
  }
  projectA = (await registerProject({ externalId: "proj-a" }, SYSTEM_ACTOR, { checkWithService: false })).id;
  projectB = (await registerProject({ externalId: "proj-b" }, SYSTEM_ACTOR, { checkWithService: false })).id;
});
afterAll(() => dispose());

/** A fresh sign-in of the user, as the guard sees it. */
async function actor(id: string): Promise<Actor | null> {
  const s = await createSession(id, "password");
  return loadActor({ sub: id, sid: s.id });
}

async function sessionRow(id: string) {
  const [row] = await (await db()).select().from(sessions).where(eq(sessions.id, id));
  return row;
}

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
  support: ["alerts:write", "batches:send", "templates:write", "contacts:write", "domains:write", "api_keys:write", "api_keys:account_wide", "webhooks:read", "webhooks:write", "users:manage", "projects:manage", "audit:read"],
  marketer: ["alerts:write", "messages:reply", "inbound:simulate", "recipients:erase", "suppressions:write", "domains:write", "api_keys:write", "api_keys:account_wide", "webhooks:read", "webhooks:write", "users:manage", "projects:manage", "audit:read"],
};
/** What an admin limited to some projects may not do, whatever the role map says. */
const ACCOUNT_LEVEL: Permission[] = ["users:manage", "projects:manage", "audit:read", "api_keys:account_wide"];

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

  it("an admin limited to some projects is refused every account-level permission, with the reason", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "limited-admin@example.com", role: "admin", password: PASSWORD, projectIds: [projectA] }), SYSTEM_ACTOR);
    const limited = await actor(user.id);
    for (const permission of PERMISSIONS) {
      const expected = ACCOUNT_LEVEL.includes(permission) ? 403 : 200;
      expect(await status(authorize(limited, permission)), permission).toBe(expected);
    }
    const refusal = await authorize(limited, "users:manage").catch((e: AppError) => e);
    expect((refusal as AppError).message).toMatch(/limited to some projects; this needs access to every project/);
    expect(await status(authorize(limited, "domains:write", { project: "proj-a" }))).toBe(200);
    expect(await status(authorize(limited, "domains:write", { project: "proj-b" }))).toBe(404);
  });

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
  it("a demotion applies at once: the role change ends the user's sessions", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "demote@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR);
    const s = await createSession(user.id, "password");
    expect(await status(authorize(await loadActor({ sub: user.id, sid: s.id }), "users:manage"))).toBe(200);
    await updateUser(user.id, { role: "support" }, { id: ids.admin, email: "admin@example.com" });
    expect(await loadActor({ sub: user.id, sid: s.id })).toBeNull();
    expect((await sessionRow(s.id)).revokedReason).toBe("role_change");
    expect(await status(authorize(await actor(user.id), "users:manage"))).toBe(403);
  });

  it("a disabled user is signed out at the next request, and the session stays ended when enabled again", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "gone@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    const s = await createSession(user.id, "password");
    expect(await loadActor({ sub: user.id, sid: s.id })).not.toBeNull();
    await updateUser(user.id, { active: false }, { id: ids.admin, email: "admin@example.com" });
    expect(await loadActor({ sub: user.id, sid: s.id })).toBeNull();
    expect(await status(authorize(await loadActor({ sub: user.id, sid: s.id }), "messages:read"))).toBe(401);
    await updateUser(user.id, { active: true }, { id: ids.admin, email: "admin@example.com" });
    expect(await loadActor({ sub: user.id, sid: s.id })).toBeNull();
  });

  it("a password reset ends every session of the user", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "reset@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    const before = await createSession(user.id, "password");
    await resetPassword(user.id, SYSTEM_ACTOR);
    expect(await loadActor({ sub: user.id, sid: before.id })).toBeNull();
    expect((await sessionRow(before.id)).revokedReason).toBe("password_reset");
    expect(await actor(user.id)).not.toBeNull();
  });

  it("unknown ids, a session of another user and empty sessions are nobody", async () => {
    const s = await createSession(ids.support, "password");
    expect(await loadActor({ sub: "nope", sid: s.id })).toBeNull();
    expect(await loadActor({ sub: ids.marketer, sid: s.id })).toBeNull();
    expect(await loadActor({ sub: ids.support, sid: "nope" })).toBeNull();
    expect(await loadActor({ sub: ids.support })).toBeNull();
    expect(await loadActor(null)).toBeNull();
  });
});

describe("server-side sessions", () => {
  it("a signed-out session is refused even though its cookie is still valid", async () => {
    const cookie = await sessionCookie(ids.support);
    const request = () => new Request("http://localhost:3000/api/x", { headers: { cookie } });
    const user = await actorFromRequest(request());
    expect(user?.role).toBe("support");
    await revokeSession(user!.sessionId, "sign_out");
    expect(await actorFromRequest(request())).toBeNull();
  });

  it("a token from a sign-in 30 days ago is refused, however recently it was used", async () => {
    const now = Date.now();
    const s = await createSession(ids.support, "password", now - 30 * DAY);
    await (await db()).update(sessions).set({ lastSeenAt: new Date(now - 60_000) }).where(eq(sessions.id, s.id));
    const cookie = await sessionCookieFor({ sub: ids.support, sid: s.id, authAt: now - 30 * DAY });
    expect(await actorFromRequest(new Request("http://localhost:3000/api/x", { headers: { cookie } }))).toBeNull();
    // Six days after sign-in and used an hour ago: still fine (the limit is 7 days).
    const recent = await createSession(ids.support, "password", now - 6 * DAY);
    await (await db()).update(sessions).set({ lastSeenAt: new Date(now - 60 * 60_000) }).where(eq(sessions.id, recent.id));
    expect(await loadActor({ sub: ids.support, sid: recent.id })).not.toBeNull();
  });

  it("a session unused for longer than SESSION_IDLE_S ends", async () => {
    const now = Date.now();
    const s = await createSession(ids.support, "password", now - 13 * 60 * 60_000);
    expect(await loadActorAndProject({ sub: ids.support, sid: s.id }, undefined, now)).toMatchObject({ user: null });
    expect((await loadActorAndProject({ sub: ids.support, sid: s.id }, undefined, now - 2 * 60 * 60_000)).user).not.toBeNull();
  });

  it("last-seen is written at most once a minute, not on every request", async () => {
    forgetTouchedSessions();
    const start = Date.now() - 10 * 60_000;
    const s = await createSession(ids.support, "password", start);
    const load = (at: number) => loadActorAndProject({ sub: ids.support, sid: s.id }, undefined, at);
    // Within the minute: five requests, no write.
    for (let i = 0; i < 5; i++) await load(start + 1_000 + i * 10_000);
    expect((await sessionRow(s.id)).lastSeenAt.getTime()).toBe(start);
    // Past it: one write (it runs after the answer; outside a request, at once), then quiet again.
    await load(start + LAST_SEEN_EVERY_MS + 1_000);
    await expect.poll(async () => (await sessionRow(s.id)).lastSeenAt.getTime()).toBe(start + LAST_SEEN_EVERY_MS + 1_000);
    await load(start + LAST_SEEN_EVERY_MS + 5_000);
    await load(start + LAST_SEEN_EVERY_MS + 30_000);
    expect((await sessionRow(s.id)).lastSeenAt.getTime()).toBe(start + LAST_SEEN_EVERY_MS + 1_000);
  });

  it("sign out everywhere ends every session of the user, and only theirs", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "everywhere@example.com", role: "marketer", password: PASSWORD }), SYSTEM_ACTOR);
    const laptop = await createSession(user.id, "password");
    const phone = await createSession(user.id, "password");
    const other = await createSession(ids.marketer, "password");
    expect(await revokeUserSessions(user.id, "sign_out_everywhere")).toBe(2);
    expect(await loadActor({ sub: user.id, sid: laptop.id })).toBeNull();
    expect(await loadActor({ sub: user.id, sid: phone.id })).toBeNull();
    expect(await loadActor({ sub: ids.marketer, sid: other.id })).not.toBeNull();
  });

  it("an admin ends another user's sessions, and the audit log says who and how many", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "lost-laptop@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    const s = await createSession(user.id, "password");
    const admin = { id: ids.admin, email: "admin@example.com" };
    expect(await endUserSessions(user.id, admin)).toEqual({ ended: 1 });
    expect(await loadActor({ sub: user.id, sid: s.id })).toBeNull();
    const { data } = await listAudit(auditQuery.parse({ action: "user.sessions_end" }));
    expect(data[0]).toMatchObject({ actorEmail: "admin@example.com", target: "lost-laptop@example.com", outcome: "success", detail: { sessions: 1 } });
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

  it("refuses a cookie of the old kind, without a session id", async () => {
    const cookie = await sessionCookieFor({ sub: ids.support, authAt: Date.now() });
    expect(await actorFromRequest(new Request("http://localhost:3000/api/x", { headers: { cookie } }))).toBeNull();
  });
});
