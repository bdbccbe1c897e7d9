import { Hono } from "hono";
import { z } from "zod";
import { page, parse, projectOf, readJson } from "../http";
import type { Env } from "../runtime";
import { suppressionView } from "../views";

const addBody = z.object({
  email: z.string({ error: "is required" }).regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>.]+$/, "must be an email address"),
  reason: z.string().min(1).optional(),
});

export const suppressions = new Hono<Env>()
  .get("/v1/suppressions", (c) => {
    const projectId = projectOf(c, true);
    return c.json(page(c, "suppressions", c.get("rt").store.suppressions.filter((s) => s.projectId === projectId), suppressionView));
  })
  // Always 201; adding an address already listed replaces its reason.
  .post("/v1/suppressions", async (c) => {
    const projectId = projectOf(c, true);
    const body = parse(addBody, await readJson(c));
    return c.json(suppressionView(c.get("rt").store.addSuppression(projectId, body.email, body.reason ?? "added_by_api", "api")), 201);
  });
