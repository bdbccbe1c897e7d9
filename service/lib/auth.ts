import { and, eq, isNull } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, AuthInfo } from "../context";
import { apiKeys, projects } from "../db/schema";
import { sha256 } from "./crypto";
import { ServiceError, forbidden, notFound } from "./errors";

export type ProjectRow = typeof projects.$inferSelect;

const keyCache = new Map<string, { auth: AuthInfo; at: number }>();
const KEY_CACHE_MS = 2_000;

/** Looks up the Bearer key by its hash. A tiny cache keeps hot paths off the database. */
export async function authenticate(c: Context<AppEnv>): Promise<AuthInfo> {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    throw new ServiceError(401, "missing_api_key", "Authorization: send the API key as 'Authorization: Bearer <API_KEY>'", "Authorization");
  }
  const hash = sha256(match[1]);
  const cached = keyCache.get(hash);
  if (cached && Date.now() - cached.at < KEY_CACHE_MS) return cached.auth;
  const { db } = c.get("deps");
  const [key] = await db.select().from(apiKeys).where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt))).limit(1);
  if (!key) throw new ServiceError(401, "invalid_api_key", "Authorization: the API key is not valid", "Authorization");
  const auth: AuthInfo = { keyId: key.id, accountId: key.accountId, keyProjectId: key.projectId, scopes: key.scopes };
  keyCache.set(hash, { auth, at: Date.now() });
  return auth;
}

export function forgetCachedKeys() {
  keyCache.clear();
}

export function requireScope(auth: AuthInfo, scope: string) {
  if (auth.scopes.includes("full_access") || auth.scopes.includes(scope)) return;
  throw forbidden(`This API key lacks the '${scope}' scope`, null, "insufficient_scope");
}

function projectHeader(c: Context<AppEnv>): { name: string; value: string } | null {
  const product = c.req.header("x-service-product");
  if (product) return { name: "X-Service-Product", value: product };
  const sender = c.req.header("x-service-sender");
  if (sender) return { name: "X-Service-Sender", value: sender };
  return null;
}

async function projectById(c: Context<AppEnv>, id: string) {
  const [row] = await c.get("deps").db.select().from(projects).where(eq(projects.id, id)).limit(1);
  return row;
}

async function projectByExternalId(c: Context<AppEnv>, accountId: string, externalId: string) {
  const [row] = await c.get("deps").db.select().from(projects)
    .where(and(eq(projects.externalId, externalId), eq(projects.accountId, accountId))).limit(1);
  return row;
}

/**
 * The project a request acts on, when it names one. A project-scoped key implies its project
 * (naming another is a 403); an account-wide key names it with X-Service-Product or
 * X-Service-Sender, and without either the answer is null: for operations on a resource by
 * id, the resource's own project then applies.
 */
export async function resolveProject(c: Context<AppEnv>): Promise<ProjectRow | null> {
  const auth = c.get("auth");
  const header = projectHeader(c);
  if (auth.keyProjectId) {
    const own = await projectById(c, auth.keyProjectId);
    if (!own) throw new ServiceError(401, "invalid_api_key", "Authorization: the API key's project no longer exists", "Authorization");
    if (header && header.value !== own.externalId) {
      throw forbidden(`${header.name}: this API key belongs to project '${own.externalId}' and cannot act on '${header.value}'`, header.name, "project_forbidden");
    }
    return own;
  }
  if (!header) return null;
  const project = await projectByExternalId(c, auth.accountId, header.value);
  if (!project) throw new ServiceError(400, "unknown_project", `${header.name}: no project '${header.value}' in this account`, header.name);
  return project;
}

/**
 * The project of an operation that acts on one (a list, a send, a create), once the key is
 * known to hold `scope`: as resolveProject, and an account-wide key that names none is
 * answered 400 `project_required`.
 */
export async function requireProject(c: Context<AppEnv>, scope: string): Promise<ProjectRow> {
  requireScope(c.get("auth"), scope);
  const project = await resolveProject(c);
  if (!project) {
    throw new ServiceError(400, "project_required",
      "X-Service-Product: an account-wide API key must name the project in the X-Service-Product (or X-Service-Sender) header",
      "X-Service-Product");
  }
  return project;
}

/**
 * For operations on one resource by id: the resource must belong to the project the
 * request may act on. Anything else is "not found", so ids of other projects leak nothing.
 */
export async function assertResourceProject(c: Context<AppEnv>, resourceProjectId: string, what: string): Promise<ProjectRow> {
  const allowed = await resolveProject(c);
  if (allowed && allowed.id !== resourceProjectId) throw notFound(what);
  const project = allowed ?? (await projectById(c, resourceProjectId));
  if (!project || project.accountId !== c.get("auth").accountId) throw notFound(what);
  return project;
}

/** A resource looked up by id, when the request may act on it: absent and out of reach are both "not found". */
export async function requireResource<T extends { projectId: string }>(c: Context<AppEnv>, row: T | undefined | null, what: string): Promise<T> {
  if (!row) throw notFound(what);
  await assertResourceProject(c, row.projectId, what);
  return row;
}
