import "server-only";
import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { z } from "zod";
import type { createUserRequest, updateUserRequest, userProjectsRequest, UserView } from "@/lib/schemas/users";
import { recordAudit, SYSTEM_ACTOR, withAudit, type AuditActor } from "./audit";
import { generatePassword, hashPassword } from "./auth/password";
import { liveSessionCondition, revokeUserSessions } from "./auth/sessions";
import { clearAccountAttempts } from "./auth/throttle";
import { db, type Db } from "./db";
import { projects, userProjects, users, type UserRow } from "./db/schema/core";
import { sessions } from "./db/schema/sessions";
import { env } from "./env";

/**
 * People who may sign in, their role and their project access. Only an admin with every
 * project reaches these functions (users:manage is an account permission, lib/permissions.ts).
 * Rules kept here, whoever calls: nobody changes their own role, grants or active flag; there
 * is always an active admin with every project; a new user can open no project until given
 * some; a role change, disabling and a password reset end the user's sessions.
 */
const projectIdsOf = sql<string[]>`coalesce((select array_agg(${userProjects.projectId} order by ${userProjects.projectId}) from ${userProjects} where ${userProjects.userId} = ${users.id}), '{}')`;

function activeSessionsOf() {
  // Qualified by hand: in a one-table select Drizzle writes columns unqualified, and a bare
  // "id" inside this subquery would be the session's own.
  return sql<number>`(select count(*)::int from ${sessions} where ${sessions}."user_id" = ${users}."id" and ${liveSessionCondition()})`;
}

/** Who the user is and what they may open, as both the guard's Actor and the admin screen's UserView carry it. */
export type UserAccount = Pick<UserRow, "id" | "email" | "name" | "role" | "active" | "allProjects">;
export const accountOf = (row: UserAccount): UserAccount => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  active: row.active,
  allProjects: row.allProjects,
});

function toView(row: UserRow, projectIds: string[], activeSessions: number): UserView {
  return {
    ...accountOf(row),
    projectIds,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    activeSessions,
  };
}

export async function listUsers(): Promise<UserView[]> {
  const d = await db();
  const rows = await d.select({ user: users, projectIds: projectIdsOf, activeSessions: activeSessionsOf() }).from(users).orderBy(asc(users.email));
  return rows.map((r) => toView(r.user, r.projectIds ?? [], r.activeSessions ?? 0));
}

export async function getUser(id: string): Promise<UserView | null> {
  const d = await db();
  const [r] = await d.select({ user: users, projectIds: projectIdsOf, activeSessions: activeSessionsOf() }).from(users).where(eq(users.id, id)).limit(1);
  return r ? toView(r.user, r.projectIds ?? [], r.activeSessions ?? 0) : null;
}

async function requireUser(id: string): Promise<UserView> {
  const user = await getUser(id);
  if (!user) throw new AppError(404, "not_found", "User not found.");
  return user;
}

/** The projects named, all of which must exist; a bad one is named by its index. */
async function knownProjects(projectIds: string[]): Promise<{ id: string; externalId: string }[]> {
  const unique = [...new Set(projectIds)];
  if (unique.length === 0) return [];
  const d = await db();
  const known = await d.select({ id: projects.id, externalId: projects.externalId }).from(projects).where(inArray(projects.id, unique));
  const index = projectIds.findIndex((p) => !known.some((k) => k.id === p));
  if (index >= 0) throw new AppError(400, "validation_error", `projectIds.${index}: no such project`, `projectIds.${index}`);
  return known;
}

/**
 * Creates a user with the project access chosen for them (none unless chosen). When no
 * password is given one is generated and returned once, never stored in clear. `data` is read
 * with `createUserRequest` by the caller (the route; tests likewise).
 */
export async function createUser(
  data: z.output<typeof createUserRequest>,
  actor: AuditActor,
): Promise<{ user: UserView; password: string | null }> {
  const email = data.email.toLowerCase();
  const grants = data.allProjects ? [] : data.projectIds;
  const detail = { role: data.role, allProjects: data.allProjects, projects: [] as string[] };
  return withAudit({ actor, action: "user.create", target: email, detail }, async () => {
    const known = await knownProjects(grants);
    detail.projects = known.map((k) => k.externalId).sort();
    const generated = data.password ? null : generatePassword();
    const passwordHash = await hashPassword(data.password ?? generated!);
    const d = await db();
    const row = await d.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({ email, name: data.name, role: data.role, passwordHash, allProjects: data.allProjects })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) throw new AppError(409, "conflict", "email: a user with this email already exists", "email");
      if (known.length) await tx.insert(userProjects).values(known.map((k) => ({ userId: created.id, projectId: k.id })));
      return created;
    });
    return { user: toView(row, known.map((k) => k.id).sort(), 0), password: generated };
  });
}

/**
 * Active admins with every project, other than `exceptId`, locked for the rest of the
 * transaction: the dashboard must keep one, or nobody could manage users any more.
 */
async function otherFullAdmins(tx: Db, exceptId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.active, true), eq(users.allProjects, true), ne(users.id, exceptId)))
    .for("update");
  return rows.length;
}

function isFullAdmin(u: Pick<UserView, "role" | "active" | "allProjects">): boolean {
  return u.role === "admin" && u.active && u.allProjects;
}

export async function updateUser(id: string, changes: z.output<typeof updateUserRequest>, actor: AuditActor): Promise<UserView> {
  const before = await requireUser(id);
  const detail: Record<string, unknown> = {};
  for (const key of ["role", "active", "name"] as const) {
    if (changes[key] !== undefined && changes[key] !== before[key]) detail[key] = { from: before[key], to: changes[key] };
  }
  const roleChanges = changes.role !== undefined && changes.role !== before.role;
  const disables = changes.active === false && before.active;
  return withAudit({ actor, action: "user.update", target: before.email, detail }, async () => {
    if (actor.id === id && changes.active === false) {
      throw new AppError(409, "conflict", "active: you cannot disable your own account", "active");
    }
    if (actor.id === id && roleChanges) {
      throw new AppError(409, "conflict", "role: you cannot change your own role", "role");
    }
    const d = await db();
    const row = await d.transaction(async (tx) => {
      const after = { role: changes.role ?? before.role, active: changes.active ?? before.active, allProjects: before.allProjects };
      if (isFullAdmin(before) && !isFullAdmin(after) && (await otherFullAdmins(tx as unknown as Db, id)) === 0) {
        const param = changes.active === false ? "active" : "role";
        throw new AppError(409, "last_admin", `${param}: this is the last active admin with every project; make someone else one first`, param);
      }
      const [updated] = await tx
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return updated;
    });
    if (!row) throw new AppError(404, "not_found", "User not found.");
    // A new role or a disabled account starts from a fresh sign-in (or none at all).
    let ended = 0;
    if (disables) ended = await revokeUserSessions(id, "disabled");
    else if (roleChanges) ended = await revokeUserSessions(id, "role_change");
    if (ended) detail.sessionsEnded = ended;
    return toView(row, before.projectIds, disables || roleChanges ? 0 : before.activeSessions);
  });
}

/** A new generated password, returned once. Every session of the user ends. */
export async function resetPassword(id: string, actor: AuditActor): Promise<{ password: string }> {
  const user = await requireUser(id);
  const detail: Record<string, unknown> = {};
  return withAudit({ actor, action: "user.password_reset", target: user.email, detail }, async () => {
    const password = generatePassword();
    const d = await db();
    await d
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
      .where(eq(users.id, id));
    detail.sessionsEnded = await revokeUserSessions(id, "password_reset");
    await clearAccountAttempts(user.email);
    return { password };
  });
}

/** An admin ends every session of a user (a lost laptop, a shared browser). */
export async function endUserSessions(id: string, actor: AuditActor): Promise<{ ended: number }> {
  const user = await requireUser(id);
  const detail: Record<string, unknown> = {};
  return withAudit({ actor, action: "user.sessions_end", target: user.email, detail }, async () => {
    const ended = await revokeUserSessions(id, "ended_by_admin");
    detail.sessions = ended;
    return { ended };
  });
}

export async function setUserProjects(id: string, data: z.output<typeof userProjectsRequest>, actor: AuditActor): Promise<UserView> {
  const user = await requireUser(id);
  const grants = data.allProjects ? [] : data.projectIds;
  const detail = { allProjects: data.allProjects, projects: [] as string[] };
  return withAudit({ actor, action: "user.projects", target: user.email, detail }, async () => {
    if (actor.id === id) {
      throw new AppError(409, "conflict", "allProjects: you cannot change your own project access", "allProjects");
    }
    const known = await knownProjects(grants);
    detail.projects = known.map((k) => k.externalId).sort();
    const d = await db();
    await d.transaction(async (tx) => {
      if (isFullAdmin(user) && !data.allProjects && (await otherFullAdmins(tx as unknown as Db, id)) === 0) {
        throw new AppError(409, "last_admin", "allProjects: this is the last active admin with every project; make someone else one first", "allProjects");
      }
      await tx.update(users).set({ allProjects: data.allProjects, updatedAt: new Date() }).where(eq(users.id, id));
      await tx.delete(userProjects).where(eq(userProjects.userId, id));
      if (known.length) await tx.insert(userProjects).values(known.map((k) => ({ userId: id, projectId: k.id })));
    });
    return (await getUser(id))!;
  });
}

/**
 * On a fresh database, creates the first admin from ADMIN_EMAIL / ADMIN_PASSWORD, with every
 * project (someone must be able to manage the rest); without ADMIN_PASSWORD a password is
 * generated and printed once to stdout. Does nothing once any user exists.
 */
export async function ensureFirstAdmin(log: (line: string) => void = console.log): Promise<void> {
  const d = await db();
  const [{ n }] = await d.select({ n: count() }).from(users);
  if (n > 0) return;
  const e = env();
  const email = (e.ADMIN_EMAIL ?? "admin@example.com").toLowerCase();
  const password = e.ADMIN_PASSWORD ?? generatePassword();
  const [row] = await d
    .insert(users)
    .values({ email, name: "Admin", role: "admin", allProjects: true, passwordHash: await hashPassword(password) })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) return;
  await recordAudit({ actor: SYSTEM_ACTOR, action: "user.create", target: email, outcome: "success", detail: { role: "admin", allProjects: true, firstAdmin: true } });
  if (e.ADMIN_PASSWORD) {
    log(`First admin created: ${email} (password from ADMIN_PASSWORD)`);
  } else {
    log(`First admin created: ${email}  password: ${password}  (shown once; reset it from Admin → Users)`);
  }
}
