import { and, eq, isNull } from "drizzle-orm";
import { createApiKeyRequest, createApiKeyResponse, idParam } from "../../contract/wire";
import type { App } from "../context";
import { apiKeys, projects } from "../db/schema";
import { createApiKey } from "../lib/accounts";
import { forgetCachedKeys, requireScope } from "../lib/auth";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { errorResponse, errorResponses, jsonAnswer, jsonBody, routesTagged } from "./shared";

const route = routesTagged("API keys");

const create = route({
  method: "post", path: "/v1/api-keys",
  request: { body: jsonBody(createApiKeyRequest) },
  responses: {
    201: jsonAnswer("The key, with its secret (shown only here)", createApiKeyResponse),
    ...errorResponses,
    403: errorResponse("The key may not create this key"),
  },
});

/** Beyond the interface, which lists no way to revoke a key: see service/README.md. */
const revoke = route({
  method: "delete", path: "/v1/api-keys/{id}",
  request: { params: idParam },
  responses: {
    204: { description: "Revoked: the key stops working at once" },
    401: errorResponses[401],
    403: errorResponse("The key lacks the api_keys:write scope"),
    404: errorResponse("No such key, already revoked, or out of this key's reach"),
  },
});

export function register(app: App) {
  app.openapi(revoke, async (c) => {
    const auth = c.get("auth");
    requireScope(auth, "api_keys:write");
    const { id } = c.req.valid("param");
    const db = c.get("deps").db;
    const [key] = await db.select().from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, auth.accountId), isNull(apiKeys.revokedAt))).limit(1);
    // A project key reaches only its own project's keys; others (and account-wide ones) look absent.
    if (!key || (auth.keyProjectId && key.projectId !== auth.keyProjectId)) throw notFound("API key");
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    // The authentication cache would otherwise accept the key for up to two more seconds.
    forgetCachedKeys();
    return c.body(null, 204);
  });

  app.openapi(create, async (c) => {
    const auth = c.get("auth");
    requireScope(auth, "api_keys:write");
    const body = c.req.valid("json");
    const db = c.get("deps").db;

    let project: typeof projects.$inferSelect | null = null;
    if (body.senderId) {
      [project] = await db.select().from(projects)
        .where(and(eq(projects.externalId, body.senderId), eq(projects.accountId, auth.accountId))).limit(1);
      if (!project) throw badRequest(`senderId: no project '${body.senderId}' in this account`, "senderId", "unknown_project");
    }
    // A key never makes a key with more power than itself: not another project, not account-wide...
    if (auth.keyProjectId && project?.id !== auth.keyProjectId) {
      throw forbidden(
        project
          ? `senderId: this API key belongs to another project and cannot create keys for '${body.senderId}'`
          : "senderId: a project-scoped API key can only create keys for its own project; name it in senderId",
        "senderId", "project_forbidden");
    }
    // ...and not more scopes. Omitted scopes inherit the creating key's.
    const full = auth.scopes.includes("full_access");
    const scopes = body.scopes ? [...new Set(body.scopes)] : full ? ["full_access"] : auth.scopes;
    const beyond = full ? [] : scopes.filter((s) => !auth.scopes.includes(s));
    if (beyond.length) throw forbidden(`scopes: this API key cannot grant scopes it lacks (${beyond.join(", ")})`, "scopes", "insufficient_scope");

    const { key, secret } = await createApiKey(db, { accountId: auth.accountId, projectId: project?.id ?? null, name: body.name, scopes });
    return c.json({
      id: key.id, name: key.name, secret, prefix: key.prefix,
      senderId: project?.externalId ?? null, scopes: key.scopes, createdAt: key.createdAt.toISOString(),
    }, 201);
  });
}
