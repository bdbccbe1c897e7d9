import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { decode, getToken } from "next-auth/jwt";
import { AppError } from "@/lib/errors";
import { can, ROLE_LABELS, type Permission, type Role } from "@/lib/permissions";
import type { SessionClaims } from "./auth/config";
import { db, type Db } from "./db";
import { projects, userProjects, users } from "./db/schema/core";
import { env } from "./env";
import { getProject } from "./projects";

/** The signed-in user as the guard sees it: read from the database on every request. */
export type Actor = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  allProjects: boolean;
  /** Dashboard project ids (`Project.id`) granted when `allProjects` is false. */
  projectIds: string[];
  /** Sign-in time (ms since epoch), for asking the password again before sensitive actions. */
  authAt: number | null;
};

export type Project = { id: string; externalId: string; name: string; createdAt: string };

/**
 * The guard's one query, prepared once per database handle: it runs on every request, and
 * building it anew each time cost more than running it.
 */
const preparedActorQueries = new WeakMap<Db, ReturnType<typeof prepareActorQuery>>();

function prepareActorQuery(d: Db) {
  const projectParam = sql.placeholder("project");
  return d
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      active: users.active,
      allProjects: users.allProjects,
      sessionsValidFrom: users.sessionsValidFrom,
      projectIds: sql<string[]>`coalesce((select array_agg(${userProjects.projectId}) from ${userProjects} where ${userProjects.userId} = ${users.id}), '{}')`,
      pId: projects.id,
      pExternalId: projects.externalId,
      pName: projects.name,
      pCreatedAt: projects.createdAt,
    })
    .from(users)
    // Joined on a condition that is false without a project, so the row is the user's alone.
    .leftJoin(projects, and(sql`${projectParam}::text is not null`, eq(projects.externalId, sql`coalesce(${projectParam}::text, '')`)))
    .where(eq(users.id, sql.placeholder("userId")))
    .limit(1)
    .prepare("guard_actor");
}

async function actorQuery() {
  const d = await db();
  let q = preparedActorQueries.get(d);
  if (!q) preparedActorQueries.set(d, (q = prepareActorQuery(d)));
  return q;
}

/**
 * The user behind a session — and, when `projectExternalId` is given, that project — in one
 * query. The user is null when the account is gone, disabled, or its sessions were revoked
 * after this one began (password reset).
 */
export async function loadActorAndProject(
  claims: SessionClaims | null | undefined,
  projectExternalId?: string,
): Promise<{ user: Actor | null; project: Project | null }> {
  const userId = claims?.sub;
  if (!userId) return { user: null, project: null };
  const authAt = typeof claims.authAt === "number" ? claims.authAt : null;
  const [row] = await (await actorQuery()).execute({ userId, project: projectExternalId ?? null });
  const project =
    row?.pId && row.pExternalId && row.pName && row.pCreatedAt
      ? { id: row.pId, externalId: row.pExternalId, name: row.pName, createdAt: row.pCreatedAt.toISOString() }
      : null;
  if (!row || !row.active) return { user: null, project };
  if (row.sessionsValidFrom && (authAt ?? 0) < row.sessionsValidFrom.getTime()) return { user: null, project };
  const user: Actor = {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.active,
    allProjects: row.allProjects,
    projectIds: row.projectIds ?? [],
    authAt,
  };
  return { user, project };
}

export async function loadActor(claims: SessionClaims | null | undefined): Promise<Actor | null> {
  return (await loadActorAndProject(claims)).user;
}

/**
 * Decoded session tokens by their text. A token never changes once issued, so decrypting it
 * again on every API call is wasted work; what can change (role, active, revocation) is read
 * from the database every time regardless.
 */
const CLAIMS_CACHE_MAX = 1000;
const claimsCache = new Map<string, { claims: SessionClaims; until: number }>();

export async function sessionClaimsFromRequest(req: Request): Promise<SessionClaims | null> {
  const e = env();
  const secureCookie = new URL(e.PUBLIC_URL).protocol === "https:";
  const raw = await getToken({ req, secureCookie, raw: true });
  if (!raw) return null;
  const cached = claimsCache.get(raw);
  if (cached && cached.until > Date.now()) return cached.claims;
  let payload: { sub?: string; authAt?: unknown; exp?: number } | null;
  try {
    payload = await decode({
      token: raw,
      secret: e.AUTH_SECRET,
      salt: secureCookie ? "__Secure-authjs.session-token" : "authjs.session-token",
    });
  } catch {
    return null;
  }
  if (!payload) return null;
  const claims: SessionClaims = { sub: payload.sub, authAt: typeof payload.authAt === "number" ? payload.authAt : undefined };
  if (typeof payload.exp === "number") {
    if (claimsCache.size >= CLAIMS_CACHE_MAX) claimsCache.delete(claimsCache.keys().next().value!);
    claimsCache.set(raw, { claims, until: payload.exp * 1000 });
  }
  return claims;
}

/** Route handlers: the session cookie of this request, decoded directly (no round trip through Auth.js). */
export async function actorFromRequest(req: Request): Promise<Actor | null> {
  return loadActor(await sessionClaimsFromRequest(req));
}

export function userCanAccessProject(user: Pick<Actor, "allProjects" | "projectIds">, project: Project): boolean {
  return user.allProjects || user.projectIds.includes(project.id);
}

/**
 * The checks of the one guard, for a user already loaded: signed in (401), permission from
 * the role map (403), project known and granted (404 either way, so a project's existence
 * does not leak to someone without access). `preloaded` is the project already read with
 * the user (route handlers); otherwise it is looked up here.
 */
export async function authorize(
  user: Actor | null,
  permission: Permission,
  opts: { project?: string } = {},
  preloaded?: Project | null,
): Promise<{ user: Actor; project: Project | null }> {
  if (!user) throw new AppError(401, "unauthorized", "Sign in to continue.");
  if (!can(user.role, permission)) {
    throw new AppError(403, "forbidden", `Your role (${ROLE_LABELS[user.role]}) does not allow this (${permission}).`);
  }
  if (opts.project === undefined) return { user, project: null };
  const project = preloaded !== undefined ? preloaded : await getProject(opts.project);
  if (!project || project.externalId !== opts.project || !userCanAccessProject(user, project)) {
    throw new AppError(404, "project_not_found", "Project not found, or you do not have access to it.");
  }
  return { user, project };
}
