import { Hono } from "hono";
import { z } from "zod";
import { findInReach, page, parse, projectOf, readJson } from "../http";
import type { Env } from "../runtime";
import { renderPart } from "../templates";
import { templateView } from "../views";

const previewBody = z.object({
  subject: z.string().optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const templates = new Hono<Env>()
  .get("/v1/templates", (c) => {
    const projectId = projectOf(c, true);
    return c.json(page(c, "templates", c.get("rt").store.templates.filter((t) => t.projectId === projectId), templateView));
  })
  // By id only: a slug works where the interface says so (templateId on send), not here.
  .get("/v1/templates/:id", (c) => {
    const id = c.req.param("id");
    return c.json(templateView(findInReach(c, c.get("rt").store.templates, (t) => t.id === id, `Template ${id}`)));
  })
  // The rendered draft under `rendered`, only the parts that were given; no variable list.
  .post("/v1/templates/preview", async (c) => {
    projectOf(c, true);
    const body = parse(previewBody, await readJson(c));
    const data = body.data ?? {};
    const rendered: Record<string, string> = {};
    for (const part of ["subject", "html", "text"] as const) {
      const out = renderPart(body[part], data, part);
      if (out !== null) rendered[part] = out;
    }
    return c.json({ rendered, engine: "mustache", renderedAt: new Date().toISOString() });
  });
