import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { templates } from "../db/schema";

export type TemplateRow = typeof templates.$inferSelect;

/** Template ids look like `tmpl_…`; anything else is taken as a slug. */
export const isTemplateId = (idOrSlug: string) => /^tmpl_[0-9a-z]{10,}$/.test(idOrSlug);

/** A project's template by id or slug (the `templateId` of a send accepts both). */
export async function findTemplate(db: Pick<Db, "select">, projectId: string, idOrSlug: string): Promise<TemplateRow | null> {
  const [row] = await db.select().from(templates)
    .where(and(eq(templates.projectId, projectId), isTemplateId(idOrSlug) ? eq(templates.id, idOrSlug) : eq(templates.slug, idOrSlug)))
    .limit(1);
  return row ?? null;
}
