/**
 * The words services use for message events and statuses, read into the dashboard's own.
 *
 * The interface names event types (section 6) but leaves the fields of an event element, the
 * payload of a delivery and every message status beyond `queued` unspecified. Real services
 * spell the same thing many ways (`delivery`, `delivered`, `email.delivered`, `Delivered`,
 * `DeliveryEvent`), so every reader of an event or a status goes through here: one table,
 * browser-safe, used by the ingest, the index, the timeline and the badges alike. A word not
 * in the table is kept as it came (lower-cased), shown neutrally, and never treated as final.
 */
import { MESSAGE_STATUSES, type MessageStatus } from "@/contract/message-status";
import { EVENT_TYPES } from "@/contract/wire/words";

/** The interface's event types (section 6); the canonical form of every event word. */
export const CANONICAL_EVENT_TYPES = EVENT_TYPES;
export type CanonicalEventType = (typeof CANONICAL_EVENT_TYPES)[number];

/** Lower snake case: `DeliveryDelay` → `delivery_delay`, `spam-report` → `spam_report`. */
export function wordKey(value: string): string {
  const key = value
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s.\-/:]+/g, "_")
    .replace(/^_+/, "");
  // Trailing underscores by hand: /_+$/ retries from every underscore of a long run (quadratic).
  let end = key.length;
  while (end > 0 && key[end - 1] === "_") end--;
  return key.slice(0, end);
}

/** Prefixes services put before the event word: `email.delivered`, `message_bounced`, `mail.opened`. */
const EVENT_PREFIX = /^(email|message|mail|outbound|msg)_/;
/** Suffixes of the same kind: `DeliveryEvent`, `bounce_notification`. */
const EVENT_SUFFIX = /_(event|notification)$/;

const EVENT_SYNONYMS: Record<string, CanonicalEventType> = {
  accepted: "accepted", accept: "accepted", processed: "accepted", request: "accepted", created: "accepted",
  queued: "queued", queue: "queued", enqueued: "queued", scheduled: "queued",
  sending: "sending", processing: "sending", in_progress: "sending",
  sent: "sent", send: "sent", relayed: "sent", dispatched: "sent",
  delivery: "delivery", delivered: "delivery", delivery_succeeded: "delivery", delivery_success: "delivery", success: "delivery",
  bounce: "bounce", bounced: "bounce", hard_bounce: "bounce", hard_bounced: "bounce", hardbounce: "bounce", permanent_failure: "bounce", undeliverable: "bounce",
  complaint: "complaint", complained: "complaint", spam_complaint: "complaint", spamreport: "complaint", spam_report: "complaint", spam: "complaint", marked_as_spam: "complaint",
  open: "open", opened: "open", opens: "open",
  click: "click", clicked: "click", clicks: "click", link_clicked: "click",
  delivery_delayed: "delivery_delayed", delivery_delay: "delivery_delayed", delayed: "delivery_delayed", deferred: "delivery_delayed", deferral: "delivery_delayed", soft_bounce: "delivery_delayed", temporary_failure: "delivery_delayed",
  rejected: "rejected", reject: "rejected", dropped: "rejected", blocked: "rejected", suppressed: "rejected",
  rendering_failure: "rendering_failure", render_failure: "rendering_failure", rendering_failed: "rendering_failure", template_error: "rendering_failure",
  failed: "failed", failure: "failed", error: "failed", errored: "failed",
  inbound_received: "inbound_received", inbound: "inbound_received", received: "inbound_received", inbound_message: "inbound_received",
  inbound_rejected: "inbound_rejected",
};

/** The interface's event type for a service's word; the cleaned word itself when unknown. */
export function canonicalEventType(raw: string | null | undefined): string {
  const key = wordKey(raw ?? "");
  if (!key) return "unknown";
  if (Object.hasOwn(EVENT_SYNONYMS, key)) return EVENT_SYNONYMS[key];
  const bare = key.replace(EVENT_PREFIX, "").replace(EVENT_SUFFIX, "");
  if (Object.hasOwn(EVENT_SYNONYMS, bare)) return EVENT_SYNONYMS[bare];
  return bare || key;
}

export function isKnownEventType(raw: string): boolean {
  return (CANONICAL_EVENT_TYPES as readonly string[]).includes(canonicalEventType(raw));
}

/** The dashboard's message statuses (what the badges, filters and overview speak) are shared with service/. */
export { MESSAGE_STATUSES, type MessageStatus };

/** Statuses nothing moves on from (a complaint after delivery aside, see foldStatus). */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["delivered", "bounced", "complained", "rejected", "failed", "received", "canceled"]);

const STATUS_SYNONYMS: Record<string, MessageStatus> = {
  queued: "queued", accepted: "queued", pending: "queued", processed: "queued", created: "queued", enqueued: "queued",
  scheduled: "scheduled",
  sending: "sending", processing: "sending", in_progress: "sending",
  sent: "sent", relayed: "sent", dispatched: "sent",
  delayed: "delayed", deferred: "delayed", delivery_delayed: "delayed", soft_bounce: "delayed",
  delivered: "delivered", delivery: "delivered", delivery_succeeded: "delivered", opened: "delivered", clicked: "delivered",
  bounced: "bounced", bounce: "bounced", hard_bounce: "bounced", hard_bounced: "bounced", undeliverable: "bounced",
  complained: "complained", complaint: "complained", spam: "complained", spam_complaint: "complained", marked_as_spam: "complained",
  rejected: "rejected", reject: "rejected", dropped: "rejected", blocked: "rejected", suppressed: "rejected",
  failed: "failed", failure: "failed", error: "failed", errored: "failed", rendering_failure: "failed",
  received: "received", inbound_received: "received", inbound: "received",
  canceled: "canceled", cancelled: "canceled",
};

/** The dashboard's status for a service's word; the cleaned word itself when unknown. */
export function canonicalStatus(raw: string | null | undefined): string {
  const key = wordKey(raw ?? "");
  if (!key) return "unknown";
  if (Object.hasOwn(STATUS_SYNONYMS, key)) return STATUS_SYNONYMS[key];
  const bare = key.replace(EVENT_PREFIX, "");
  return Object.hasOwn(STATUS_SYNONYMS, bare) ? STATUS_SYNONYMS[bare] : bare || key;
}

export function isKnownStatus(status: string): boolean {
  return (MESSAGE_STATUSES as readonly string[]).includes(canonicalStatus(status));
}

/** Known to be final. An unknown word is not: whether it settled is told by time (see SETTLE_QUIET_MS). */
export function isFinalStatus(status: string): boolean {
  return FINAL_STATUSES.has(canonicalStatus(status));
}

/**
 * A message whose status is not known to be final is taken as settled once nothing has
 * changed for this long: screens stop polling and say when it last changed.
 */
export const SETTLE_QUIET_MS = 60_000;

/** Settled: a known final status, or no change for SETTLE_QUIET_MS. */
export function isSettled(status: string, lastChangedAt: Date | number | null, now = Date.now()): boolean {
  if (isFinalStatus(status)) return true;
  if (lastChangedAt === null) return false;
  const at = typeof lastChangedAt === "number" ? lastChangedAt : lastChangedAt.getTime();
  return Number.isFinite(at) && now - at >= SETTLE_QUIET_MS;
}
