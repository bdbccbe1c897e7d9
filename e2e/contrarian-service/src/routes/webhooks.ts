import { Hono } from "hono";
import { z } from "zod";
import { findInReach, page, parse, projectOf, readJson } from "../http";
import { newId, newSecret } from "../ids";
import type { Env } from "../runtime";
import { webhookView } from "../views";
import { EVENT_TYPES } from "../webhooks";

const createBody = z.object({
  url: z.string({ error: "is required" }).regex(/^https?:\/\/[^\s/]+/i, "must be an http or https URL"),
  eventTypes: z.array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(", ")}` }), { error: "is required" }).min(1, "needs at least one event type"),
});

export const webhooks = new Hono<Env>()
  .get("/v1/webhooks", (c) => {
    const projectId = projectOf(c, true);
    const live = c.get("rt").store.webhooks.filter((w) => w.projectId === projectId && !w.deleted);
    return c.json(page(c, "webhooks", live, (w) => webhookView(w, "redacted")));
  })
  // The signing secret is plain base64 (no prefix), shown here only.
  .post("/v1/webhooks", async (c) => {
    const projectId = projectOf(c, true);
    const body = parse(createBody, await readJson(c));
    const created = { id: newId("wh"), projectId, url: body.url, eventTypes: [...body.eventTypes], secret: newSecret(), createdAt: new Date(), deleted: false };
    c.get("rt").store.webhooks.push(created);
    return c.json(webhookView(created, "full"), 201);
  })
  .delete("/v1/webhooks/:id", (c) => {
    const id = c.req.param("id");
    const w = findInReach(c, c.get("rt").store.webhooks, (x) => x.id === id && !x.deleted, `Webhook ${id}`);
    w.deleted = true;
    return c.body(null, 204);
  });
