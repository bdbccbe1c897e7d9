import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadActorAndProject } from "./access";
import { SYSTEM_ACTOR } from "../audit";
import { createSession, revokeSession } from "../auth/sessions";
import { db } from "../db";
import { users } from "../db/schema/core";
import { useTestDb } from "../db/test-db";
import { registerProject, removeProject, updateProject } from "../projects";
import { setTestEnv } from "../test-helpers";
import { createUser, setUserProjects, updateUser } from "../users";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * The guard keeps its session row between requests on PGlite (access.ts, contract/db/write-epoch.ts):
 * each case reads a session twice (kept), writes the way the dashboard does, and the very next
 * read must see the write. Always on PGlite, whatever TEST_DATABASE_URL says: that is where the
 * rows are kept.
 */
let dispose: () => Promise<void>;
let exchanges = 0;
let adminId: string;
const saved = process.env.TEST_DATABASE_URL;

beforeAll(async () => {
  setTestEnv({ DATABASE_URL: undefined });
  delete process.env.TEST_DATABASE_URL;
  ({ dispose } = await useTestDb());
  process.env.TEST_DATABASE_URL = saved;
  // Count what reaches the engine, to see a kept row read without a query.
  const engine = ((await db()) as unknown as { $client: unknown }).$client as { execProtocolRawSync: (...args: unknown[]) => unknown };
  const exchange = engine.execProtocolRawSync.bind(engine);
  engine.execProtocolRawSync = (...args) => {
    exchanges++;
    return exchange(...args);
  };
  adminId = (await createUser(createUserRequest.parse({ email: "root@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id;
}, 120_000);
afterAll(() => dispose());

let n = 0;
async function signedIn(role: "admin" | "support" = "support", allProjects = true) {
  const { user } = await createUser(createUserRequest.parse({ email: `u${++n}@example.com`, role, password: "correct horse battery", allProjects }), SYSTEM_ACTOR);
  const session = await createSession(user.id, "password");
  return { userId: user.id, claims: { sub: user.id, sid: session.id }, sessionId: session.id };
}

/** Reads twice; the second read must come from the kept row (no exchange with the engine). */
async function kept(claims: { sub: string; sid: string }, project?: string) {
  const first = await loadActorAndProject(claims, project);
  const before = exchanges;
  const second = await loadActorAndProject(claims, project);
  expect(exchanges - before).toBe(0);
  expect(second).toEqual(first);
  return first;
}

describe("the guard's kept session rows (PGlite)", () => {
  it("a revoked session is refused at the next request", async () => {
    const s = await signedIn();
    expect((await kept(s.claims)).user?.id).toBe(s.userId);
    await revokeSession(s.sessionId, "sign_out");
    expect((await loadActorAndProject(s.claims)).user).toBeNull();
  });

  it("a role change and a disabled account apply at the next request", async () => {
    const s = await signedIn("support");
    expect((await kept(s.claims)).user?.role).toBe("support");
    await updateUser(s.userId, { role: "marketer" }, { id: adminId, email: "root@example.com" } as never);
    expect((await loadActorAndProject(s.claims)).user).toBeNull(); // a role change ends the sessions
    const t = await signedIn("support");
    await kept(t.claims);
    await updateUser(t.userId, { active: false }, { id: adminId, email: "root@example.com" } as never);
    expect((await loadActorAndProject(t.claims)).user).toBeNull();
  });

  it("a changed grant and a renamed or removed project apply at the next request", async () => {
    const project = await registerProject({ externalId: `p${++n}` }, SYSTEM_ACTOR, { checkWithService: false });
    const s = await signedIn("support", false);
    await setUserProjects(s.userId, { allProjects: false, projectIds: [project.id] }, SYSTEM_ACTOR);
    expect((await kept(s.claims, project.externalId)).user?.projectIds).toEqual([project.id]);
    await setUserProjects(s.userId, { allProjects: false, projectIds: [] }, SYSTEM_ACTOR);
    expect((await loadActorAndProject(s.claims, project.externalId)).user?.projectIds).toEqual([]);
    await updateProject(project.id, { name: "Renamed" }, SYSTEM_ACTOR);
    expect((await loadActorAndProject(s.claims, project.externalId)).project?.name).toBe("Renamed");
    await kept(s.claims, project.externalId);
    await removeProject(project.id, SYSTEM_ACTOR);
    expect((await loadActorAndProject(s.claims, project.externalId)).project).toBeNull();
  });

  it("any writer counts: plain SQL, a transaction, a cascade", async () => {
    const d = await db();
    const s = await signedIn();
    await kept(s.claims);
    await d.execute(sql`update users set name = 'Raw' where id = ${s.userId}`);
    expect((await loadActorAndProject(s.claims)).user?.name).toBe("Raw");
    await kept(s.claims);
    await d.transaction(async (tx) => {
      await tx.update(users).set({ name: "In a transaction" }).where(eq(users.id, s.userId));
    });
    expect((await loadActorAndProject(s.claims)).user?.name).toBe("In a transaction");
    await kept(s.claims);
    await d.delete(users).where(eq(users.id, s.userId)); // its sessions go with it
    expect((await loadActorAndProject(s.claims)).user).toBeNull();
  });

  it("the clock still ends an idle session that is kept", async () => {
    const s = await signedIn();
    const now = Date.now();
    expect((await loadActorAndProject(s.claims, undefined, now)).user).not.toBeNull();
    expect((await loadActorAndProject(s.claims, undefined, now + 13 * 60 * 60 * 1000)).user).toBeNull();
  });
});
