import "server-only";
import { desc, eq, isNull, or } from "drizzle-orm";
import { createApiKeyForm, type ApiKeyListItem, type CreatedApiKey } from "@/lib/schemas/api-keys-form";
import { withAudit } from "../audit";
import { db } from "../db";
import { dashboardApiKeys } from "../db/schema/api-keys";
import type { Actor, Project } from "../guard";
import { requireRecentAuth } from "../reauth";
import { service } from "../service/index";

/**
 * Keys are created through the service and recorded here without their secret. The secret
 * passes through this function once, into the response; it is never logged, audited or
 * stored, and the route answers `Cache-Control: no-store` (every route does).
 */
export async function createApiKey(actor: Actor, project: Project, input: unknown): Promise<CreatedApiKey> {
  const form = createApiKeyForm.parse(input);
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
  };
  await (await db()).insert(dashboardApiKeys).values(row).onConflictDoNothing();
  return { ...toItem(row), secret: created.secret };
}

function toItem(r: typeof dashboardApiKeys.$inferSelect): ApiKeyListItem {
  return { id: r.id, name: r.name, project: r.project, scopes: r.scopes, createdByEmail: r.createdByEmail, createdAt: r.createdAt.toISOString() };
}

/** Keys of this project and every account-wide key (those reach this project too). */
export async function listApiKeys(project: Project): Promise<ApiKeyListItem[]> {
  const d = await db();
  const rows = await d
    .select()
    .from(dashboardApiKeys)
    .where(or(eq(dashboardApiKeys.project, project.externalId), isNull(dashboardApiKeys.project)))
    .orderBy(desc(dashboardApiKeys.createdAt))
    .limit(500);
  return rows.map(toItem);
}
