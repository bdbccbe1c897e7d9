/**
 * The interface's fixed words and string patterns, without zod: browser code that only tests
 * a string (is this an address?) or lists the words (event types in a filter) imports them
 * from here and so does not load the schema library. The schemas build on these same lists.
 */

/**
 * Email addresses are checked with a pragmatic pattern rather than z.email():
 * Zod 4's built-in refuses one-letter top-level domains, which real mail allows.
 */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

/** No NUL character: Postgres refuses it in text, so it would come back as a 500 instead of a 400. */
export const NO_NUL = { pattern: /^[^\u0000]*$/, error: "must not contain a NUL character (\\u0000)" } as const;

/** The interface's event types (section 6). */
export const OUTBOUND_EVENT_TYPES = [
  "accepted", "queued", "sending", "sent", "delivery", "bounce", "complaint", "open", "click",
  "delivery_delayed", "rejected", "rendering_failure", "failed",
] as const;
export const INBOUND_EVENT_TYPES = ["inbound_received", "inbound_rejected"] as const;
export const EVENT_TYPES = [...OUTBOUND_EVENT_TYPES, ...INBOUND_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const DOMAIN_STATUSES = ["pending", "verified", "failed"] as const;

/** The reasons a suppression is added with (the dashboard's choice: the interface shows only `bounce`). */
export const SUPPRESSION_REASONS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
