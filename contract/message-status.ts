import type { EventType } from "./wire/words";

/**
 * Message statuses: the words the dashboard's badges, filters and overview speak, and the
 * local service's own statuses. The interface leaves every status beyond `queued` unspecified,
 * so the dashboard never relies on a service using them: it reads any service's word through
 * its vocabulary (lib/messages/vocabulary.ts), which maps synonyms onto these.
 */
export const MESSAGE_STATUSES = [
  "queued", "scheduled", "sending", "sent", "delayed", "delivered", "bounced", "complained", "rejected", "failed", "received", "canceled",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The status each lifecycle event puts a message in; event types absent here (open, click,
 * delivery_delayed) say nothing about the status by themselves. The local service sets its
 * messages' statuses with it; the dashboard's status fold reads events with it, adding what it
 * infers about other providers.
 */
export const STATUS_AFTER_EVENT: Readonly<Partial<Record<EventType, MessageStatus>>> = {
  accepted: "queued",
  queued: "queued",
  sending: "sending",
  sent: "sent",
  delivery: "delivered",
  bounce: "bounced",
  complaint: "complained",
  rejected: "rejected",
  rendering_failure: "failed",
  failed: "failed",
  inbound_received: "received",
  inbound_rejected: "rejected",
};
