import "server-only";
import { and, desc, eq, isNull, or } from "drizzle-orm";
import { AppError, isAppError } from "@/lib/errors";
import { allows, refusalReason } from "@/lib/permissions";
import type { z } from "zod";
import { type createApiKeyForm, type ApiKeyList, type ApiKeyListItem, type CreatedApiKey, type KeyRevokeSupport } from "@/lib/schemas/api-keys-form";
import { withAudit } from "./audit";
import { db } from "./db";
import { dashboardApiKeys } from "./db/schema/api-keys";
import { env } from "./env";
import type { Actor, Project } from "./gate/guard";
import { requireRecentAuth } from "./gate/reauth";
import { service } from "./service/index";

/**
 * Keys are created through the service and recorded here without their secret. The secret
 * passes through this function once, into the response; it is never logged, audited or
 * stored, and the route answers `Cache-Control: no-store` (every route does).
 *
 * A key made on a project's screen is tied to that project (the service's `senderId`) unless
 * an admin with every project asks for an account-wide one: a key for every project must not
 * be within reach of someone who may open only some.
 */
export async function createApiKey(actor: Actor, project: Project, form: z.output<typeof createApiKeyForm>): Promise<CreatedApiKey> {
  if (form.reach === "account" && !allows(actor, "api_keys:account_wide")) {
    throw new AppError(403, "forbidden", `reach: ${refusalReason(actor, "api_keys:account_wide")}`, "reach");
  }
  await requireRecentAuth(actor);
  const scopeOf = form.reach === "project" ? project.externalId : null;
  const created = await withAudit(
    {
      actor,
      action: "api_key.create",
      project: project.externalId,
      target: form.name,
      detail: { keyName: form.name, reach: form.reach, scopes: form.scopes },
    },
    () => service.apiKeys.create(project.externalId, { name: form.name, scopes: form.scopes, ...(scopeOf ? { senderId: scopeOf } : {}) }),
  );
  const row = {
    id: created.id,
    name: created.name || form.name,
    project: scopeOf,
    createdIn: project.externalId,
    scopes: form.scopes,
    createdBy: actor.id,
    createdByEmail: actor.email,
    createdAt: new Date(),
    revokedAt: null,
    revokedByEmail: null,
  };
  await (await db()).insert(dashboardApiKeys).values(row).onConflictDoNothing();
  return { ...toItem(row), secret: created.secret };
}

function toItem(r: typeof dashboardApiKeys.$inferSelect): ApiKeyListItem {
  return {
    id: r.id,
    name: r.name,
    project: r.project,
    scopes: r.scopes,
    createdByEmail: r.createdByEmail,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    revokedByEmail: r.revokedByEmail,
  };
}

// What the configured service answered to the last revoke, per service URL; reset by a restart.
const SUPPORT = Symbol.for("mail-dashboard.key-revoke-support");
type Holder = { [SUPPORT]?: Map<string, KeyRevokeSupport> };
function supportMap(): Map<string, KeyRevokeSupport> {
  return ((globalThis as Holder)[SUPPORT] ??= new Map());
}
export function keyRevokeSupport(): KeyRevokeSupport {
  return supportMap().get(env().SERVICE_URL) ?? "unknown";
}
function learnRevokeSupport(value: KeyRevokeSupport): void {
  supportMap().set(env().SERVICE_URL, value);
}

/** Keys of this project and every account-wide key (those reach this project too). */
export async function listApiKeys(project: Project): Promise<ApiKeyList> {
  const d = await db();
  const rows = await d
    .select()
    .from(dashboardApiKeys)
    .where(or(eq(dashboardApiKeys.project, project.externalId), isNull(dashboardApiKeys.project)))
    .orderBy(desc(dashboardApiKeys.createdAt))
    .limit(500);
  return { data: rows.map(toItem), revoke: keyRevokeSupport() };
}

export const REVOKE_UNSUPPORTED = "revoke_unsupported";

/**
 * Revokes a key the dashboard created, through the service's DELETE /v1/api-keys/{id} (not
 * part of the interface). A service that answers 404 or 405 has no such operation: the key
 * stays valid and must be revoked in the provider's console; the answer says so.
 */
export async function revokeApiKey(actor: Actor, project: Project, id: string): Promise<ApiKeyListItem> {
  const d = await db();
  const [key] = await d
    .select()
    .from(dashboardApiKeys)
    .where(and(eq(dashboardApiKeys.id, id), or(eq(dashboardApiKeys.project, project.externalId), isNull(dashboardApiKeys.project))))
    .limit(1);
  if (!key) throw new AppError(404, "not_found", "id: no key created through the dashboard has this id in this project", "id");
  if (key.project === null && !allows(actor, "api_keys:account_wide")) {
    throw new AppError(403, "forbidden", refusalReason(actor, "api_keys:account_wide"));
  }
  if (key.revokedAt) throw new AppError(409, "already_revoked", `This key was already revoked by ${key.revokedByEmail ?? "someone"}.`);
  const detail: Record<string, unknown> = { keyId: key.id, keyName: key.name, reach: key.project ? "project" : "account" };
  return withAudit({ actor, action: "api_key.revoke", project: project.externalId, target: key.name, detail }, async () => {
    try {
      await service.apiKeys.revoke(key.project, key.id);
    } catch (e) {
      if (isAppError(e) && (e.status === 404 || e.status === 405)) {
        learnRevokeSupport("unsupported");
        throw new AppError(
          409,
          REVOKE_UNSUPPORTED,
          `The email service does not offer revoking keys through its API, so "${key.name}" still works. Revoke it in the provider's own console.`,
        );
      }
      throw e;
    }
    learnRevokeSupport("supported");
    const revokedAt = new Date();
    const [row] = await d
      .update(dashboardApiKeys)
      .set({ revokedAt, revokedByEmail: actor.email })
      .where(eq(dashboardApiKeys.id, key.id))
      .returning();
    return toItem(row);
  });
}
