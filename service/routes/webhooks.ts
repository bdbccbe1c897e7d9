import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { createWebhookRequest, idParam, pageQuery, webhook as webhookShape } from "../../contract/wire";
import type { App } from "../context";
import { webhookDeliveries, webhooks } from "../db/schema";
import { requireProject, requireResource, requireScope } from "../lib/auth";
import { newId } from "../lib/ids";
import { assertWebhookDestination } from "../lib/webhook-destination";
import { pageById } from "../lib/pagination";
import { offerDemoHistory } from "../seed/replay";
import { createdInProject, notFoundResponses, pagedList, routesTagged } from "./shared";

type WebhookRow = typeof webhooks.$inferSelect;

/** Lists show only the secret's last four characters, enough to tell secrets apart. */
export const redactSecret = (secret: string) => `whsec_…${secret.slice(-4)}`;

export const toWebhook = (row: WebhookRow, secret: "full" | "redacted") => ({
  id: row.id,
  url: row.url,
  enabled: row.enabled,
  eventTypes: row.eventTypes,
  signingSecret: secret === "full" ? row.secret : redactSecret(row.secret),
  createdAt: row.createdAt.toISOString(),
});

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const route = routesTagged("Webhooks");

const list = route({ method: "get", path: "/v1/webhooks", ...pagedList(pageQuery, webhookShape, "A page of endpoints, newest first, secrets redacted") });

const create = route({
  method: "post", path: "/v1/webhooks",
  ...createdInProject(createWebhookRequest, webhookShape, "The endpoint with its signing secret, shown only here"),
});

const remove = route({
  method: "delete", path: "/v1/webhooks/{id}",
  request: { params: idParam },
  responses: { 204: { description: "Deleted; pending deliveries are cancelled at once" }, ...notFoundResponses("No such endpoint") },
});

export function register(app: App) {
  app.openapi(list, async (c) => {
    const project = await requireProject(c, "webhooks:read");
    const { data, nextCursor } = await pageById(c.get("deps").db, webhooks, c.req.valid("query"),
      eq(webhooks.projectId, project.id), isNull(webhooks.deletedAt));
    return c.json({ data: data.map((r) => toWebhook(r, "redacted")), nextCursor }, 200);
  });

  app.openapi(create, async (c) => {
    const project = await requireProject(c, "webhooks:write");
    const body = c.req.valid("json");
    // Checked again at every delivery, on the address connected to (DNS can change in between).
    await assertWebhookDestination(c.get("deps"), body.url);
    const row = await c.get("deps").db.transaction(async (tx) => {
      const [row] = await tx.insert(webhooks).values({
        id: newId("wh"),
        projectId: project.id,
        url: body.url,
        eventTypes: [...new Set(body.eventTypes)],
        secret: newSigningSecret(),
      }).returning();
      // A demo project's first endpoint receives its seeded past (README, "Seed").
      await offerDemoHistory(tx, row, c.get("deps").config.SERVICE_DEMO_REPLAY_DELAY_MS);
      return row;
    });
    return c.json(toWebhook(row, "full"), 201);
  });

  app.openapi(remove, async (c) => {
    requireScope(c.get("auth"), "webhooks:write");
    const { id } = c.req.valid("param");
    const db = c.get("deps").db;
    const [row] = await db.select().from(webhooks).where(and(eq(webhooks.id, id), isNull(webhooks.deletedAt))).limit(1);
    await requireResource(c, row, "Webhook");
    // Soft delete keeps the delivery history; cancelling pending deliveries stops retries at once.
    await db.transaction(async (tx) => {
      await tx.update(webhooks).set({ deletedAt: new Date(), enabled: false }).where(eq(webhooks.id, id));
      await tx.update(webhookDeliveries).set({ state: "cancelled" })
        .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.state, "pending")));
    });
    return c.body(null, 204);
  });
}
