import { eq } from "drizzle-orm";
import { pageQuery, previewRequest, previewResponse, template as templateShape } from "../../contract/wire";
import type { App } from "../context";
import { templates } from "../db/schema";
import { requireProject, requireResource, requireScope, resolveProject } from "../lib/auth";
import { ServiceError, badRequest, notFound } from "../lib/errors";
import { pageById } from "../lib/pagination";
import { TemplateSyntaxError, renderTemplate } from "../lib/render";
import { findTemplate, isTemplateId, type TemplateRow } from "../lib/templates";
import { errorResponses, jsonAnswer, jsonBody, oneById, pagedList, projectHeaders, routesTagged } from "./shared";

export const toTemplate = (row: TemplateRow) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  subject: row.subject,
  html: row.html,
  text: row.text,
  createdAt: row.createdAt.toISOString(),
  variables: renderTemplate(row, {}).variables,
});

const route = routesTagged("Templates");

const list = route({ method: "get", path: "/v1/templates", ...pagedList(pageQuery, templateShape, "A page of templates, newest first") });

const get = route({
  method: "get", path: "/v1/templates/{id}",
  ...oneById(templateShape, "The template, by id or slug", "No such template"),
});

const preview = route({
  method: "post", path: "/v1/templates/preview",
  request: { headers: projectHeaders, body: jsonBody(previewRequest) },
  responses: { 200: jsonAnswer("The rendered draft, the variables it uses and those `data` lacks", previewResponse), ...errorResponses },
});

export function register(app: App) {
  app.openapi(list, async (c) => {
    const project = await requireProject(c, "templates:read");
    const { data, nextCursor } = await pageById(c.get("deps").db, templates, c.req.valid("query"), eq(templates.projectId, project.id));
    return c.json({ data: data.map(toTemplate), nextCursor }, 200);
  });

  app.openapi(get, async (c) => {
    requireScope(c.get("auth"), "templates:read");
    const { id } = c.req.valid("param");
    const db = c.get("deps").db;
    if (isTemplateId(id)) {
      const [row] = await db.select().from(templates).where(eq(templates.id, id)).limit(1);
      return c.json(toTemplate(await requireResource(c, row, "Template")), 200);
    }
    // A slug is unique only within a project, so it needs one: the key's, or the header's.
    const project = await resolveProject(c);
    if (!project) {
      throw new ServiceError(400, "project_required",
        `X-Service-Product: '${id}' is a slug, unique only within a project; name the project in X-Service-Product (or X-Service-Sender), or use the template's id`,
        "X-Service-Product");
    }
    const row = await findTemplate(db, project.id, id);
    if (!row) throw notFound("Template");
    return c.json(toTemplate(row), 200);
  });

  app.openapi(preview, async (c) => {
    await requireProject(c, "templates:read");
    const body = c.req.valid("json");
    try {
      const result = renderTemplate({ subject: body.subject ?? null, html: body.html ?? null, text: body.text ?? null }, body.data ?? {});
      return c.json(result, 200);
    } catch (error) {
      if (error instanceof TemplateSyntaxError) throw badRequest(error.message, error.part, "template_syntax_error");
      throw error;
    }
  });
}
