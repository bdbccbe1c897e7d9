import "server-only";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { webhookPayload, type WebhookPayload } from "@/lib/schemas/webhooks";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { eventStreams, indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { foldStatus } from "@/lib/server/messages/fold";
import { invalidateMessage } from "@/lib/server/messages/read";
import { recipientRows } from "@/lib/server/messages/recipients";
import { openSecret } from "./secret-box";

export type IngestResult = { status: number; body?: { error: { message: string; code: string } } };

const fail = (status: number, code: string, message: string): IngestResult => ({ status, body: { error: { message, code } } });

/**
 * One signed delivery from the service. Verified on the raw bytes (Standard Webhooks,
 * whose library also refuses timestamps more than 5 minutes off), taken once per
 * `webhook-id` (a unique index, so concurrent retries insert one row), folded into the
 * indexed message whatever order events arrive in. Unknown event types are kept but change
 * nothing. Answers as soon as the row is written: nothing here calls the service.
 */
export async function ingestDelivery(projectExternalId: string, raw: string, headers: Headers): Promise<IngestResult> {
  if (Buffer.byteLength(raw) > MAX_REQUEST_BYTES) return fail(413, "payload_too_large", "The delivery is too large.");
  const d = await db();
  const [stream] = await d
    .select({ projectId: projects.id, sealed: eventStreams.secretCiphertext })
    .from(eventStreams)
    .innerJoin(projects, eq(projects.id, eventStreams.projectId))
    .where(eq(projects.externalId, projectExternalId))
    .limit(1);
  // The same answer as a bad signature: an unknown project says nothing about which exist.
  if (!stream) return fail(401, "invalid_signature", "The delivery could not be verified.");

  const webhookId = headers.get("webhook-id") ?? "";
  let json: unknown;
  try {
    json = new Webhook(openSecret(stream.sealed)).verify(raw, {
      "webhook-id": webhookId,
      "webhook-timestamp": headers.get("webhook-timestamp") ?? "",
      "webhook-signature": headers.get("webhook-signature") ?? "",
    });
  } catch {
    return fail(401, "invalid_signature", "The delivery could not be verified (signature or timestamp).");
  }
  const parsed = webhookPayload.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(400, "validation_error", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "is not valid"}`);
  }
  if (parsed.data.data.project !== projectExternalId) return fail(400, "validation_error", "data.project: does not match this endpoint");
  if (await store(stream.projectId, webhookId, parsed.data)) invalidateMessage(stream.projectId, parsed.data.data.messageId);
  return { status: 204 };
}

/**
 * "Last event received" is for people ("events arrived a moment ago"), so it is written at most
 * every few seconds per project rather than by each of thousands of events in a burst.
 */
const STREAM_STAMP_EVERY_MS = 5_000;
const streamStamped = new Map<string, number>();
function shouldStampStream(projectId: string): boolean {
  const now = Date.now();
  if (now - (streamStamped.get(projectId) ?? 0) < STREAM_STAMP_EVERY_MS) return false;
  streamStamped.set(projectId, now);
  return true;
}

/** True when the event was new (not a redelivery of one taken before). */
async function store(projectId: string, webhookId: string, payload: WebhookPayload): Promise<boolean> {
  const d = await db();
  const at = new Date(payload.createdAt);
  const occurredAt = Number.isNaN(at.getTime()) ? new Date() : at;
  const m = payload.data;
  return d.transaction(async (tx) => {
    const [event] = await tx
      .insert(indexedEvents)
      .values({ messageId: m.messageId, projectId, type: payload.type, occurredAt, data: m.eventData, webhookId })
      .onConflictDoNothing({ target: indexedEvents.webhookId })
      .returning({ seq: indexedEvents.seq });
    if (!event) return false; // this webhook-id was taken before

    const fresh = {
      id: m.messageId,
      projectId,
      direction: m.direction,
      status: foldStatus("queued", payload.type),
      from: m.from,
      to: m.to,
      subject: m.subject,
      html: m.html ?? null,
      text: m.text ?? null,
      source: "webhook",
      createdAt: occurredAt,
      lastEventAt: occurredAt,
    };
    const [created] = await tx.insert(indexedMessages).values(fresh).onConflictDoNothing({ target: indexedMessages.id }).returning({ id: indexedMessages.id });
    if (created) {
      const rows = recipientRows({ id: m.messageId, projectId, from: m.from, to: m.to, createdAt: occurredAt });
      if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
    } else {
      // Row lock: two events of one message folding at once must not lose either.
      const [current] = await tx
        .select({ status: indexedMessages.status })
        .from(indexedMessages)
        .where(eq(indexedMessages.id, m.messageId))
        .for("update");
      await tx
        .update(indexedMessages)
        .set({
          status: foldStatus(current?.status ?? "queued", payload.type),
          html: sql`coalesce(${indexedMessages.html}, ${m.html ?? null})`,
          text: sql`coalesce(${indexedMessages.text}, ${m.text ?? null})`,
          createdAt: sql`least(${indexedMessages.createdAt}, ${occurredAt.toISOString()}::timestamptz)`,
          lastEventAt: sql`greatest(${indexedMessages.lastEventAt}, ${occurredAt.toISOString()}::timestamptz)`,
          updatedAt: new Date(),
        })
        .where(eq(indexedMessages.id, m.messageId));
    }
    if (shouldStampStream(projectId)) await tx.update(eventStreams).set({ lastEventAt: new Date() }).where(eq(eventStreams.projectId, projectId));
    return true;
  });
}
