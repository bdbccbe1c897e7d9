import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { PageQuery } from "@/lib/schemas/common";
import type { PreviewRequest, PreviewResponse } from "@/lib/schemas/templates";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { templateSamples } from "@/lib/server/db/schema/template-samples";
import { redactorFor } from "@/lib/server/redaction/redactor";
import { service } from "@/lib/server/service";
import type { SampleRequest, TemplateSample } from "@/lib/schemas/templates-form";

/** `query` is read with `pageQuery` by the route or the page. */
export const listTemplates = (project: Project, query: PageQuery) => service.templates.list(project.externalId, query);

export const getTemplate = (project: Project, id: string) => service.templates.get(project.externalId, id);

export const previewTemplate = (project: Project, body: PreviewRequest): Promise<PreviewResponse> =>
  service.templates.preview(project.externalId, body);

/** A stored template rendered with `data` (compose's review of a templated message). */
export async function renderTemplate(project: Project, id: string, data: Record<string, unknown>): Promise<PreviewResponse> {
  const t = await getTemplate(project, id);
  return previewTemplate(project, { subject: t.subject, html: t.html ?? undefined, text: t.text ?? undefined, data });
}

function toSample(row: typeof templateSamples.$inferSelect): TemplateSample {
  return { id: row.id, name: row.name, data: row.data, createdBy: row.createdBy, updatedAt: row.updatedAt.toISOString() };
}

export async function listSamples(project: Project, templateId: string): Promise<TemplateSample[]> {
  const d = await db();
  const rows = await d
    .select()
    .from(templateSamples)
    .where(and(eq(templateSamples.projectId, project.id), eq(templateSamples.templateId, templateId)))
    .orderBy(asc(templateSamples.name));
  return rows.map(toSample);
}

/** Saves a named sample set; the same name again replaces its data. An address erased in the project is not kept in it. */
export async function saveSample(project: Project, actor: Actor, templateId: string, body: SampleRequest): Promise<TemplateSample> {
  return withAudit({ actor, action: "template.sample_save", project: project.externalId, target: `${templateId}: ${body.name}` }, async () =>
    (await db()).transaction(async (tx) => {
      const r = await redactorFor(tx, project.id);
      const [name, data] = [r.text(body.name), r.json(body.data)];
      const [row] = await tx
        .insert(templateSamples)
        .values({ projectId: project.id, templateId, name, data, createdBy: actor.email })
        .onConflictDoUpdate({
          target: [templateSamples.projectId, templateSamples.templateId, templateSamples.name],
          set: { data, createdBy: actor.email, updatedAt: new Date() },
        })
        .returning();
      return toSample(row);
    }),
  );
}

export async function deleteSample(project: Project, actor: Actor, templateId: string, sampleId: string): Promise<void> {
  await withAudit({ actor, action: "template.sample_delete", project: project.externalId, target: `${templateId}: ${sampleId}` }, async () => {
    const d = await db();
    const gone = await d
      .delete(templateSamples)
      .where(and(eq(templateSamples.id, sampleId), eq(templateSamples.projectId, project.id), eq(templateSamples.templateId, templateId)))
      .returning({ id: templateSamples.id });
    if (!gone.length) throw new AppError(404, "not_found", "Sample set not found.");
  });
}
