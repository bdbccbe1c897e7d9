import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, leaseColumns } from "./columns";
import { projectIdColumn } from "./core";

/**
 * The event stream's health and the re-read queue (lib/server/event-stream, lib/server/message-index/reread-queue.ts).
 * The stream only tells the dashboard *that* a message changed; the message read back from
 * the service is what the index keeps.
 */
/**
 * Per project: what the stream delivered. Written by adding deltas every few seconds from
 * each dashboard process's memory (never once per delivery), so instances on one database add up.
 */
export const eventStreamHealth = pgTable("event_stream_health", {
  projectId: projectIdColumn().primaryKey(),
  /** Any delivery that reached the ingest for this project, verified or not. */
  lastDeliveryAt: at("last_delivery_at"),
  lastAcceptedAt: at("last_accepted_at"),
  lastUnusableAt: at("last_unusable_at"),
  lastRefusedAt: at("last_refused_at"),
  acceptedCount: bigint("accepted_count", { mode: "number" }).notNull().default(0),
  /** Verified, but carrying nothing the dashboard can use (no message id, not JSON…): acknowledged. */
  unusableCount: bigint("unusable_count", { mode: "number" }).notNull().default(0),
  /** Signature or timestamp did not verify: answered 401. */
  refusedCount: bigint("refused_count", { mode: "number" }).notNull().default(0),
  /** The newest problem, in words, and when it happened. */
  lastReason: text("last_reason"),
  lastReasonAt: at("last_reason_at"),
  updatedAt: at("updated_at").notNull().defaultNow(),
});

/**
 * Messages to read again from the service. One row per message coalesces a burst of events
 * into one read; `generation` moves when another event arrives while a read is under way,
 * so that read does not remove the row and the message is read once more. Claimed with
 * FOR UPDATE SKIP LOCKED under a lease, so several instances share the work and a restart
 * loses nothing.
 */
export const messageRereads = pgTable(
  "message_rereads",
  {
    projectId: projectIdColumn(),
    messageId: text("message_id").notNull(),
    /** What asked for it: `event`, `reconcile`, `simulate`, `reply`. */
    reason: text("reason").notNull(),
    dueAt: at("due_at").notNull(),
    generation: integer("generation").notNull().default(0),
    /** `attempts`: failed ones so far (a rate limit does not count). */
    ...leaseColumns(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId] }), index("message_rereads_due_idx").on(t.projectId, t.dueAt)],
);

/**
 * Per project: the stream mode the latest reconciler pass decided (lib/server/event-stream/reconciler.ts,
 * whichever instance ran it), so every instance reports it on /api/metrics by reading one table
 * (lib/server/metrics/database-gauges.ts). Rewritten each pass; a project's row goes with it.
 */
export const eventStreamModes = pgTable("event_stream_modes", {
  projectId: projectIdColumn().primaryKey(),
  /** A StreamModeCode: live, waiting, not_connected, refused, unusable, silent. */
  code: text("code").notNull(),
  decidedAt: at("decided_at").notNull().defaultNow(),
});

/** A project whose service said 429: no re-reads for it before `until` (Retry-After, or a growing back-off). */
export const rereadPauses = pgTable("reread_pauses", {
  projectId: projectIdColumn().primaryKey(),
  until: at("until").notNull(),
  /** 429s in a row; reset by a successful read. */
  strikes: integer("strikes").notNull().default(0),
});

export type MessageRereadRow = typeof messageRereads.$inferSelect;
export type EventStreamHealthRow = typeof eventStreamHealth.$inferSelect;
