import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { FINAL_STATUSES } from "../../../messages/vocabulary";
import { projectIdColumn } from "./core";

/** `status not in (<the vocabulary's final statuses>)`: the messages the reconciler may still have to read. */
const NOT_FINAL = sql.raw(`status not in (${[...FINAL_STATUSES].map((s) => `'${s}'`).join(", ")})`);

/**
 * The message index. The interface can retrieve a message by id but cannot list or search,
 * so the dashboard records what it sends and every event its webhook receives. Support
 * searches it; compose, scheduled sends and the overview read it.
 */
export const indexedMessages = pgTable(
  "indexed_messages",
  {
    /** The service's message id. */
    id: text("id").primaryKey(),
    projectId: projectIdColumn(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    /** Folded from events (lib/server/message-index/fold.ts): never moves back from a final state. */
    status: text("status").notNull(),
    from: text("from_address").notNull(),
    to: jsonb("to_addresses").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    cc: jsonb("cc").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    bcc: jsonb("bcc").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    subject: text("subject"),
    tags: jsonb("tags").$type<{ name: string; value: string }[]>().notNull().default(sql`'[]'::jsonb`),
    /** The body the dashboard sent, or the inbound mail's body from the webhook. */
    html: text("html"),
    text: text("text"),
    headers: jsonb("headers").$type<Record<string, string>>(),
    templateId: text("template_id"),
    /** How many attachments the dashboard sent with it (`has:attachment`); null when it did not send it and so cannot tell. */
    attachmentCount: integer("attachment_count"),
    /** The merge data the dashboard sent with a template (the service does not return it): "Send again" refills it. */
    templateData: jsonb("template_data").$type<Record<string, unknown>>(),
    threadId: text("thread_id"),
    /** The message this one answers: from the service, or recorded by the dashboard when it sent the reply. */
    inReplyTo: text("in_reply_to"),
    scheduledAt: at("scheduled_at"),
    idempotencyKey: text("idempotency_key"),
    /**
     * Who sent it through the dashboard (a users.id); null for mail the webhook or a look-up
     * revealed. No foreign key: its check was a look-up and a lock per recorded message, paid by
     * every batch chunk; a user's deletion still clears it (trigger, drizzle/0010).
     */
    sentBy: text("sent_by"),
    /** How the index learned of it: `dashboard`, `webhook`, `lookup`, `batch`. */
    source: text("source").notNull(),
    /** Batch job that sent it, when one did. */
    batchJobId: text("batch_job_id"),
    /** The service's createdAt. */
    createdAt: at("created_at").notNull(),
    /** The newest event time known, or when the dashboard noticed a status change: "last changed" for isSettled. */
    lastEventAt: at("last_event_at"),
    /** When the dashboard last read the message from the service (a look-up or a re-read). */
    checkedAt: at("checked_at"),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  // Search (lib/server/messages/search.ts) lists newest first, (created_at, id) being the
  // cursor: each filter has an index that either yields rows in that order (project, status)
  // or finds the few matching rows at once (tags, subject and sender words, by trigram; see
  // lib/server/db/extensions.ts). Measured by `npm run bench:search`.
  // Ascending, read backwards for `order by … desc`: an index declared `desc` is `desc nulls
  // last` in drizzle, which `order by … desc` (nulls first) cannot use at all.
  (t) => [
    index("indexed_messages_project_created_idx").on(t.projectId, t.createdAt, t.id),
    index("indexed_messages_project_status_created_idx").on(t.projectId, t.status, t.createdAt, t.id),
    index("indexed_messages_tags_idx").using("gin", sql`${t.tags} jsonb_path_ops`),
    index("indexed_messages_subject_trgm_idx").using("gin", sql`${t.subject} gin_trgm_ops`),
    index("indexed_messages_from_trgm_idx").using("gin", sql`${t.from} gin_trgm_ops`),
    index("indexed_messages_thread_idx").on(t.threadId),
    index("indexed_messages_in_reply_to_idx").on(t.inReplyTo),
    index("indexed_messages_unsettled_idx").on(t.projectId, t.createdAt).where(NOT_FINAL),
    index("indexed_messages_scheduled_idx").on(t.projectId, t.scheduledAt),
    // `has:attachment` (lib/messages/search-query): the few messages sent with attachments, newest first.
    index("indexed_messages_attachments_idx").on(t.projectId, t.createdAt, t.id).where(sql`attachment_count > 0`),
  ],
);

/** One row per address per message (to, cc, bcc, and from), lower-cased: recipient search. */
export const indexedRecipients = pgTable(
  "indexed_recipients",
  {
    /**
     * The message's id. No foreign key: its check, a look-up and a lock per address, took a third
     * of the time of inserting a batch chunk's addresses. The rows still go with their message,
     * deleted by a statement trigger on indexed_messages (drizzle/0010), and are only written with it.
     */
    messageId: text("message_id").notNull(),
    projectId: text("project_id").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: ["from", "to", "cc", "bcc"] }).notNull(),
    createdAt: at("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.email, t.role] }),
    index("indexed_recipients_lookup_idx").on(t.projectId, t.email, t.createdAt),
  ],
);

/**
 * Events as the event stream delivered them (`origin` stream), and as a read of the message
 * from the service listed them (`origin` read: the service's whole lifecycle, which the
 * message screen prefers when it has to answer from the index).
 */
export const indexedEvents = pgTable(
  "indexed_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    messageId: text("message_id").notNull(),
    projectId: text("project_id").notNull(),
    type: text("type").notNull(),
    occurredAt: at("occurred_at").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /**
     * Each event is taken once per project: the delivery's `webhook-id` for the stream (an
     * array delivery adds `#n`), `read:<fingerprint>` for an event a read returned.
     */
    webhookId: text("webhook_id"),
    origin: text("origin", { enum: ["stream", "read"] }).notNull().default("stream"),
  },
  (t) => [
    uniqueIndex("indexed_events_project_webhook_id_idx").on(t.projectId, t.webhookId),
    index("indexed_events_message_idx").on(t.messageId, t.occurredAt),
    index("indexed_events_project_type_idx").on(t.projectId, t.type, t.occurredAt),
  ],
);

/** The dashboard's own webhook on each project: where events come from. */
export const eventStreams = pgTable("event_streams", {
  projectId: projectIdColumn().primaryKey(),
  /** The service's webhook endpoint id. */
  webhookId: text("webhook_id").notNull(),
  url: text("url").notNull(),
  /** The signing secret, encrypted with a key derived from AUTH_SECRET (AES-256-GCM). */
  secretCiphertext: text("secret_ciphertext").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});

export type IndexedMessageRow = typeof indexedMessages.$inferSelect;
export type IndexedEventRow = typeof indexedEvents.$inferSelect;
