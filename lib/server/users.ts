import "server-only";
import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import {
  createUserRequest,
  updateUserRequest,
  userProjectsRequest,
  type CreateUserRequest,
  type UpdateUserRequest,
  type UserProjectsRequest,
  type UserView,
} from "@/lib/schemas/users";
import { recordAudit, SYSTEM_ACTOR, withAudit, type AuditActor } from "./audit";
import { clearAccountFailures, throttleKeys } from "./auth/throttle";
import { generatePassword, hashPassword } from "./auth/password";
import { db, type Db } from "./db";
import { projects, userProjects, users, type UserRow } from "./db/schema/core";
import { env } from "./env";

const projectIdsOf = sql<string[]>`coalesce((select array_agg(${userProjects.projectId} order by ${userProjects.projectId}) from ${userProjects} where ${userProjects.userId} = ${users.id}), '{}')`;

function toView(row: UserRow, projectIds: string[]): UserView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.active,
    allProjects: row.allProjects,
    projectIds,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

export async function listUsers(): Promise<UserView[]> {
  const d = await db();
  const rows = await d.select({ user: users, projectIds: projectIdsOf }).from(users).orderBy(asc(users.email));
  return rows.map((r) => toView(r.user, r.projectIds ?? []));
}

export async function getUser(id: string): Promise<UserView | null> {
  const d = await db();
  const [r] = await d.select({ user: users, projectIds: projectIdsOf }).from(users).where(eq(users.id, id)).limit(1);
  return r ? toView(r.user, r.projectIds ?? []) : null;
}

async function requireUser(id: string): Promise<UserView> {
  const user = await getUser(id);
  if (!user) throw new AppError(404, "not_found", "User not found.");
  return user;
}

/** Creates a user; when no password is given one is generated and returned once, never stored in clear. */
export async function createUser(
  input: CreateUserRequest,
  actor: AuditActor,
): Promise<{ user: UserView; password: string | null }> {
  const data = createUserRequest.parse(input);
  const email = data.email.toLowerCase();
  return withAudit({ actor, action: "user.create", target: email, detail: { role: data.role } }, async () => {
    const generated = data.password ? null : generatePassword();
    const passwordHash = await hashPassword(data.password ?? generated!);
    const d = await db();
    const [row] = await d
      .insert(users)
      .values({ email, name: data.name, role: data.role, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!row) throw new AppError(409, "conflict", "email: a user with this email already exists", "email");
    return { user: toView(row, []), password: generated };
  });
}

/** Active admins other than `exceptId`, locked for the rest of the transaction. */
async function otherActiveAdmins(tx: Db, exceptId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.active, true), ne(users.id, exceptId)))
    .for("update");
  return rows.length;
}

export async function updateUser(id: string, input: UpdateUserRequest, actor: AuditActor): Promise<UserView> {
  const changes = updateUserRequest.parse(input);
  const before = await requireUser(id);
  const detail: Record<string, unknown> = {};
  for (const key of ["role", "active", "name"] as const) {
    if (changes[key] !== undefined && changes[key] !== before[key]) detail[key] = { from: before[key], to: changes[key] };
  }
  return withAudit({ actor, action: "user.update", target: before.email, detail }, async () => {
    if (actor.id === id && changes.active === false) {
      throw new AppError(409, "conflict", "active: you cannot disable your own account", "active");
    }
    if (actor.id === id && changes.role !== undefined && changes.role !== before.role) {
      throw new AppError(409, "conflict", "role: you cannot change your own role", "role");
    }
    const d = await db();
    const row = await d.transaction(async (tx) => {
      const losesAdmin = before.role === "admin" && before.active && ((changes.role && changes.role !== "admin") || changes.active === false);
      if (losesAdmin && (await otherActiveAdmins(tx as unknown as Db, id)) === 0) {
        const param = changes.active === false ? "active" : "role";
        throw new AppError(409, "last_admin", `${param}: this is the last active admin; make someone else admin first`, param);
      }
      const [updated] = await tx
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return updated;
    });
    if (!row) throw new AppError(404, "not_found", "User not found.");
    return toView(row, before.projectIds);
  });
}

/** A new generated password, returned once. Sessions that began before it are ended. */
export async function resetPassword(id: string, actor: AuditActor): Promise<{ password: string }> {
  const user = await requireUser(id);
  return withAudit({ actor, action: "user.password_reset", target: user.email }, async () => {
    const password = generatePassword();
    const d = await db();
    const now = new Date();
    await d
      .update(users)
      .set({ passwordHash: await hashPassword(password), sessionsValidFrom: now, updatedAt: now })
      .where(eq(users.id, id));
    await clearAccountFailures(throttleKeys(user.email, ""));
    return { password };
  });
}

export async function setUserProjects(id: string, input: UserProjectsRequest, actor: AuditActor): Promise<UserView> {
  const data = userProjectsRequest.parse(input);
  const user = await requireUser(id);
  const projectIds = [...new Set(data.projectIds)];
  const d = await db();
  const known = projectIds.length
    ? await d.select({ id: projects.id, externalId: projects.externalId }).from(projects).where(inArray(projects.id, projectIds))
    : [];
  const unknown = projectIds.find((p) => !known.some((k) => k.id === p));
  const detail = { allProjects: data.allProjects, projects: known.map((k) => k.externalId).sort() };
  return withAudit({ actor, action: "user.projects", target: user.email, detail }, async () => {
    if (unknown) {
      const index = data.projectIds.indexOf(unknown);
      throw new AppError(400, "validation_error", `projectIds.${index}: no such project`, `projectIds.${index}`);
    }
    await d.transaction(async (tx) => {
      await tx.update(users).set({ allProjects: data.allProjects, updatedAt: new Date() }).where(eq(users.id, id));
      await tx.delete(userProjects).where(eq(userProjects.userId, id));
      if (projectIds.length) await tx.insert(userProjects).values(projectIds.map((projectId) => ({ userId: id, projectId })));
    });
    return (await getUser(id))!;
  });
}

/**
 * On a fresh database, creates the first admin from ADMIN_EMAIL / ADMIN_PASSWORD; without
 * ADMIN_PASSWORD a password is generated and printed once to stdout. Does nothing once any
 * user exists.
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
    .values({ email, name: "Admin", role: "admin", passwordHash: await hashPassword(password) })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) return;
  await recordAudit({ actor: SYSTEM_ACTOR, action: "user.create", target: email, outcome: "success", detail: { role: "admin", firstAdmin: true } });
  if (e.ADMIN_PASSWORD) {
    log(`First admin created: ${email} (password from ADMIN_PASSWORD)`);
  } else {
    log(`First admin created: ${email}  password: ${password}  (shown once; reset it from Admin → Users)`);
  }
}
