import { bigserial, boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, generatedId } from "./columns";
import { projectIdColumn } from "./core";

/**
 * What reached the event stream (issue 29): per project, the newest deliveries that arrived at
 * the ingest route, verified or not, and what the dashboard did with each. Written from each
 * process's memory a few times a minute (lib/server/event-stream/delivery-log.ts), never on the
 * ingest's hot path, and capped per project (DELIVERY_LOG in lib/schemas/webhook-deliveries.ts) in the transaction that
 * writes (the older pruned there). The body is stored redacted and cut (the same file).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: generatedId(),
    projectId: projectIdColumn(),
    receivedAt: at("received_at").notNull(),
    /** Arrival order among deliveries of the same millisecond (a flush writes its notes in arrival order). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** The `webhook-id` (or `svix-id`) header, cut to 200 characters; null when there was none. */
    webhookId: text("webhook_id"),
    /** Whether the signature verified; `signature` says why not, in words. */
    verified: boolean("verified").notNull(),
    signature: text("signature").notNull(),
    /** The first event's word and message id, when the body was read and had them. */
    eventType: text("event_type"),
    messageId: text("message_id"),
    /** recorded, duplicate, unusable, refused; `reason` for the last two. */
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    /** Redacted and cut to DELIVERY_LOG_BODY_CHARS; null for a delivery refused before its body was read. */
    body: text("body"),
    bodyCut: boolean("body_cut").notNull().default(false),
    bodyBytes: integer("body_bytes"),
  },
  (t) => [index("webhook_deliveries_project_idx").on(t.projectId, t.receivedAt, t.seq)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
