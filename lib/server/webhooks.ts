import "server-only";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { redactUrl } from "@/contract/log/redact-url";
import type { CreatedWebhook, CreateWebhookForm, WebhookListItem } from "@/lib/schemas/webhooks-form";
import type { Page } from "@/lib/schemas/common";
import type { Webhook } from "@/lib/schemas/webhooks";
import { withAudit } from "./audit";
import { db } from "./db";
import { eventStreams } from "./db/schema/messages";
import { forgetStreamKeys } from "./event-stream/stream-cache";
import type { Actor, Project } from "./gate/guard";
import { requireRecentAuth } from "./gate/reauth";
import { service } from "./service/index";

/** The service id of the dashboard's own event-stream webhook on this project, if connected. */
async function eventStreamId(project: Project): Promise<string | null> {
  const d = await db();
  const [row] = await d.select({ id: eventStreams.webhookId }).from(eventStreams).where(eq(eventStreams.projectId, project.id)).limit(1);
  return row?.id ?? null;
}

/**
 * Never passes a secret on, even if a service answered one in a list: endpoint URLs are
 * masked (credentials, query, token-like path segments), except the dashboard's own event
 * stream, whose URL is ours, carries none, and is typed back to confirm its deletion.
 */
function toItem(w: Webhook, streamId: string | null): WebhookListItem {
  const isEventStream = w.id === streamId;
  return { id: w.id, url: isEventStream ? w.url : redactUrl(w.url), enabled: w.enabled, eventTypes: w.eventTypes, createdAt: w.createdAt, isEventStream };
}

export async function listWebhooks(project: Project, query: { cursor?: string; limit?: number }): Promise<Page<WebhookListItem>> {
  const [page, streamId] = await Promise.all([service.webhooks.list(project.externalId, query), eventStreamId(project)]);
  return { data: page.data.map((w) => toItem(w, streamId)), nextCursor: page.nextCursor };
}

export async function createWebhook(actor: Actor, project: Project, body: CreateWebhookForm): Promise<CreatedWebhook> {
  await requireRecentAuth(actor);
  const created = await withAudit(
    { actor, action: "webhook.create", project: project.externalId, target: redactUrl(body.url), detail: { eventTypes: body.eventTypes } },
    () => service.webhooks.create(project.externalId, body),
  );
  if (!created.signingSecret) throw new AppError(502, "bad_gateway", "The email service created the webhook but answered no signing secret.");
  return { ...toItem(created, null), signingSecret: created.signingSecret };
}

/**
 * Deleting the dashboard's own event stream silently stops the message index, so it is
 * refused unless the admin typed its URL back (`confirmUrl`).
 */
export async function deleteWebhook(actor: Actor, project: Project, id: string, confirmUrl?: string): Promise<void> {
  const streamId = await eventStreamId(project);
  let url: string | null = null;
  if (id === streamId) {
    const d = await db();
    const [row] = await d.select({ url: eventStreams.url }).from(eventStreams).where(eq(eventStreams.projectId, project.id)).limit(1);
    url = row?.url ?? null;
    if (!confirmUrl || confirmUrl.trim() !== url) {
      throw new AppError(
        409,
        "event_stream_protected",
        "This is the dashboard's own event stream: deleting it stops the message index. Type its URL to confirm.",
        "confirmUrl",
      );
    }
  }
  await withAudit({ actor, action: "webhook.delete", project: project.externalId, target: url ? redactUrl(url) : id, detail: { webhookId: id, eventStream: url !== null } }, () =>
    service.webhooks.remove(project.externalId, id),
  );
  if (url !== null) {
    // The stream is gone: the project shows "not connected" (polling mode) and can be connected again.
    await (await db()).delete(eventStreams).where(eq(eventStreams.projectId, project.id));
    forgetStreamKeys(project.externalId);
  }
}
