import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { decode, getToken } from "next-auth/jwt";
import { AppError } from "@/lib/errors";
import { allows, refusalReason, type Permission, type Role } from "@/lib/permissions";
import type { ProjectView } from "@/lib/schemas/projects";
import { afterResponse } from "../http/after-response";
import type { SessionClaims } from "../auth/config";
import { isSessionLive, LAST_SEEN_EVERY_MS, touchSession } from "../auth/sessions";
import { db, dbKind, type Db } from "../db";
import { writeEpoch } from "@/contract/db/write-epoch";
import { projects, userProjects, users } from "../db/schema/core";
import { sessions } from "../db/schema/sessions";
import { webauthnCredentials } from "../db/schema/passkeys";
import { totpFactors, twoFactorRequiredRoles } from "../db/schema/two-factor";
import { env } from "../env";
import { getProject } from "../projects";
import { accountOf } from "../users";

/** The signed-in user as the guard sees it: as the database holds it at this request (actorRow). */
export type Actor = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  allProjects: boolean;
  /** Dashboard project ids (`Project.id`) granted when `allProjects` is false. */
  projectIds: string[];
  /** The server-side session this request belongs to (lib/server/auth/sessions.ts). */
  sessionId: string;
  /** Sign-in time (ms since epoch), for asking the password again before sensitive actions. */
  authAt: number | null;
  /** The role requires a second factor and this user has none yet: only `account:own` is allowed. */
  secondFactorDue?: boolean;
};

/** The refusal's code while a required second factor is missing; pages turn it into a visit to /account. */
export const SECOND_FACTOR_SETUP = "second_factor_setup_required";

/**
 * A registered project, as the guard hands it to handlers: the shape our API answers with
 * (lib/schemas/projects.ts). Defined there, not here, so lib/server/projects.ts and the
 * event stream need not import the guard, which imports them.
 */
export type Project = ProjectView;

/**
 * The guard's one query, prepared once per database handle: it runs on every request, and
 * building it anew each time cost more than running it. It reads the session row, its user,
 * the user's grants and (when asked) the route's project together.
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
      projectIds: sql<string[]>`coalesce((select array_agg(${userProjects.projectId}) from ${userProjects} where ${userProjects.userId} = ${users.id}), '{}')`,
      // A role that requires a second factor, a password user (single sign-on relies on its
      // provider) and no factor yet: the guard leads to the Account screen (authorize).
      secondFactorDue: sql<boolean>`(${users.passwordHash} is not null and exists(select 1 from ${twoFactorRequiredRoles} where ${twoFactorRequiredRoles.role} = ${users.role}) and not exists(select 1 from ${totpFactors} where ${totpFactors.userId} = ${users.id} and ${totpFactors.enabledAt} is not null) and not exists(select 1 from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${users.id}))`,
      signedInAt: sessions.signedInAt,
      lastSeenAt: sessions.lastSeenAt,
      revokedAt: sessions.revokedAt,
      pId: projects.id,
      pExternalId: projects.externalId,
      pName: projects.name,
      pCreatedAt: projects.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // Joined on a condition that is false without a project, so the row is the session's alone.
    .leftJoin(projects, and(sql`${projectParam}::text is not null`, eq(projects.externalId, sql`coalesce(${projectParam}::text, '')`)))
    .where(and(eq(sessions.id, sql.placeholder("sessionId")), eq(sessions.userId, sql.placeholder("userId"))))
    .limit(1)
    .prepare("guard_actor");
}

type ActorRow = Awaited<ReturnType<ReturnType<typeof prepareActorQuery>["execute"]>>[number];

/**
 * The guard's rows by session, user and project, on PGlite only: kept while no write reached
 * the database since they were read (contract/db/write-epoch.ts counts every write, whoever made it),
 * so a revoked session, a role change, a disabled account or a changed grant is seen by the
 * very next request, as when the row is read every time. The times in the row (idle, maximum
 * age) are checked against the clock on every request. On Postgres the database is shared
 * with other dashboards whose writes this process cannot see: the row is read every time.
 */
const ACTOR_ROWS_MAX = 1000;
const ACTOR_ROWS = Symbol.for("mail-dashboard.guard-rows");
function actorRows(): Map<string, { row: ActorRow | undefined; epoch: number }> {
  const holder = globalThis as { [ACTOR_ROWS]?: Map<string, { row: ActorRow | undefined; epoch: number }> };
  return (holder[ACTOR_ROWS] ??= new Map());
}

async function actorRow(userId: string, sessionId: string, project: string | null): Promise<ActorRow | undefined> {
  const query = await actorQuery();
  if ((await dbKind()) !== "pglite") return (await query.execute({ userId, sessionId, project }))[0];
  const rows = actorRows();
  const key = `${sessionId}\u0000${userId}\u0000${project ?? ""}`;
  const epoch = writeEpoch();
  const kept = rows.get(key);
  if (kept && kept.epoch === epoch) return kept.row;
  const [row] = await query.execute({ userId, sessionId, project });
  // Kept only when no write came in while it was read.
  if (writeEpoch() === epoch) {
    if (rows.size >= ACTOR_ROWS_MAX) rows.clear();
    rows.set(key, { row, epoch });
  }
  return row;
}

async function actorQuery() {
  const d = await db();
  let q = preparedActorQueries.get(d);
  if (!q) preparedActorQueries.set(d, (q = prepareActorQuery(d)));
  return q;
}

/**
 * The user behind a session — and, when `projectExternalId` is given, that project — in one
 * query. The user is null when the session is unknown, ended (sign-out, revoked), older than
 * SESSION_MAX_AGE_S since sign-in or idle longer than SESSION_IDLE_S, or when the account is
 * gone or disabled. Last-seen moves forward at most once a minute, after the answer is sent.
 */
export async function loadActorAndProject(
  claims: SessionClaims | null | undefined,
  projectExternalId?: string,
  now = Date.now(),
): Promise<{ user: Actor | null; project: Project | null }> {
  const userId = claims?.sub;
  const sessionId = claims?.sid;
  // Without a user the guard answers 401 before it looks at a project, so none is read.
  if (!userId || !sessionId) return { user: null, project: null };
  const row = await actorRow(userId, sessionId, projectExternalId ?? null);
  if (!row) return { user: null, project: null };
  const project =
    row.pId && row.pExternalId && row.pName && row.pCreatedAt
      ? { id: row.pId, externalId: row.pExternalId, name: row.pName, createdAt: row.pCreatedAt.toISOString() }
      : null;
  if (!row.active || !isSessionLive(row, now)) return { user: null, project };
  if (now - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    afterResponse("session last-seen", () => touchSession(sessionId, row.lastSeenAt, now));
  }
  const user: Actor = {
    ...accountOf(row),
    // A copy: the row may be kept for the next request (actorRow).
    projectIds: [...(row.projectIds ?? [])],
    sessionId,
    authAt: row.signedInAt.getTime(),
    ...(row.secondFactorDue ? { secondFactorDue: true } : {}),
  };
  return { user, project };
}

export async function loadActor(claims: SessionClaims | null | undefined): Promise<Actor | null> {
  return (await loadActorAndProject(claims)).user;
}

/**
 * Decoded session tokens by their text. A token never changes once issued, so decrypting it
 * again on every API call is wasted work; what can change (role, active, revocation) comes
 * from the database as it is at each request regardless (actorRow).
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
  let payload: { sub?: string; sid?: unknown; authAt?: unknown; exp?: number } | null;
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
  const claims: SessionClaims = {
    sub: payload.sub,
    sid: typeof payload.sid === "string" ? payload.sid : undefined,
    authAt: typeof payload.authAt === "number" ? payload.authAt : undefined,
  };
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
 * the role map and the project-limit rule (403, `allows` in lib/permissions.ts), project known and granted (404 either way, so a project's existence
 * does not leak to someone without access). `preloaded` is the project already read with
 * the user (route handlers, page shells); otherwise it is looked up here. Asked with a
 * project, the answer always has one.
 */
export async function authorize(user: Actor | null, permission: Permission, opts?: { project?: undefined }): Promise<{ user: Actor; project: null }>;
export async function authorize(
  user: Actor | null,
  permission: Permission,
  opts: { project: string },
  preloaded?: Project | null,
): Promise<{ user: Actor; project: Project }>;
export async function authorize(
  user: Actor | null,
  permission: Permission,
  opts: { project?: string } = {},
  preloaded?: Project | null,
): Promise<{ user: Actor; project: Project | null }> {
  if (!user) throw new AppError(401, "unauthorized", "Sign in to continue.");
  if (user.secondFactorDue && permission !== "account:own") {
    throw new AppError(403, SECOND_FACTOR_SETUP, "Your role requires two-factor sign-in: set up an authenticator app on your Account screen (/account) first.");
  }
  if (!allows(user, permission)) throw new AppError(403, "forbidden", refusalReason(user, permission));
  if (opts.project === undefined) return { user, project: null };
  const project = preloaded !== undefined ? preloaded : await getProject(opts.project);
  if (!project || project.externalId !== opts.project || !userCanAccessProject(user, project)) {
    throw new AppError(404, "project_not_found", "Project not found, or you do not have access to it.");
  }
  return { user, project };
}

/** The user and (when asked) the project, as `loadActorAndProject` reads them in one query. */
export type LoadActorAndProject = (projectExternalId?: string) => Promise<{ user: Actor | null; project: Project | null }>;

/**
 * The guard of `route()` and `guardPage()`: one query reads the user and, for a
 * project-scoped request, its project; then `authorize`. With a project the answer always
 * has one, without a project it has none.
 */
export async function checkAccess(load: LoadActorAndProject, permission: Permission): Promise<{ user: Actor; project: null }>;
export async function checkAccess(load: LoadActorAndProject, permission: Permission, projectExternalId: string): Promise<{ user: Actor; project: Project }>;
export async function checkAccess(load: LoadActorAndProject, permission: Permission, projectExternalId?: string): Promise<{ user: Actor; project: Project | null }> {
  if (projectExternalId === undefined) return authorize((await load()).user, permission);
  const loaded = await load(projectExternalId);
  return authorize(loaded.user, permission, { project: projectExternalId }, loaded.project);
}
