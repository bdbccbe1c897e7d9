import { sql } from "drizzle-orm";
import {
  bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => Buffer.from(v),
});
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => ts("created_at").notNull().defaultNow();

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const projects = pgTable("projects", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id),
  externalId: text("external_id").notNull().unique(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

/** The project a row belongs to (every project-scoped table but api_keys, where it is optional). */
const projectRef = () => text("project_id").notNull().references(() => projects.id);

export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id),
  projectId: text("project_id").references(() => projects.id),
  name: text("name").notNull(),
  /** The first characters of the secret, kept readable so a person can tell keys apart. */
  prefix: text("prefix").notNull(),
  /** SHA-256 of the secret; the secret itself is never stored. */
  hash: text("hash").notNull().unique(),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  createdAt: createdAt(),
  lastUsedAt: ts("last_used_at"),
  revokedAt: ts("revoked_at"),
});

export const domains = pgTable("domains", {
  id: text("id").primaryKey(),
  projectId: projectRef(),
  domain: text("domain").notNull(),
  status: text("status").notNull().default("pending"),
  records: jsonb("records").$type<DnsRecordRow[]>().notNull(),
  receivingEnabled: boolean("receiving_enabled").notNull().default(false),
  receivingRecords: jsonb("receiving_records").$type<DnsRecordRow[]>().notNull(),
  dkimPrivateKey: text("dkim_private_key"),
  lastCheckedAt: ts("last_checked_at"),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("domains_project_domain").on(t.projectId, t.domain)]);

export type DnsRecordRow = {
  type: string; name: string; value: string; priority: number | null; purpose: string; verified: boolean;
};

export const messages = pgTable("messages", {
  id: text("id").primaryKey(),
  projectId: projectRef(),
  direction: text("direction").notNull(),
  status: text("status").notNull(),
  from: text("from_address").notNull(),
  fromName: text("from_name"),
  to: jsonb("to_addresses").$type<AddressRow[]>().notNull(),
  cc: jsonb("cc").$type<AddressRow[]>().notNull().default([]),
  bcc: jsonb("bcc").$type<AddressRow[]>().notNull().default([]),
  replyTo: jsonb("reply_to").$type<AddressRow[]>().notNull().default([]),
  subject: text("subject"),
  html: text("html"),
  text: text("text"),
  headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
  tags: jsonb("tags").$type<{ name: string; value: string }[]>().notNull().default([]),
  templateId: text("template_id"),
  data: jsonb("data").$type<Record<string, unknown>>(),
  scheduledAt: ts("scheduled_at"),
  /** RFC 5322 Message-ID, used for In-Reply-To/References on replies. */
  rfcMessageId: text("rfc_message_id").notNull(),
  inReplyTo: text("in_reply_to"),
  /** RFC 5322 References chain (oldest first), carried into replies. */
  references: jsonb("references").$type<string[]>().notNull().default([]),
  threadId: text("thread_id").notNull(),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [
  index("messages_project_created").on(t.projectId, t.createdAt),
  index("messages_thread").on(t.threadId),
  // Inbound mail joins the thread of the message it answers (In-Reply-To).
  index("messages_project_rfc_id").on(t.projectId, t.rfcMessageId),
]);

export type AddressRow = { email: string; name?: string };

export const messageEvents = pgTable("message_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  messageId: text("message_id").notNull().references(() => messages.id),
  type: text("type").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
}, (t) => [index("message_events_message").on(t.messageId, t.id)]);

export const attachments = pgTable("attachments", {
  id: text("id").primaryKey(),
  messageId: text("message_id").notNull().references(() => messages.id),
  filename: text("filename").notNull(),
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  content: bytea("content").notNull(),
  createdAt: createdAt(),
}, (t) => [index("attachments_message").on(t.messageId)]);

/** The persisted work queue: message lifecycle steps, scheduled sends, domain checks. */
export const jobs = pgTable("jobs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  kind: text("kind").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  runAt: ts("run_at").notNull().defaultNow(),
  attempts: integer("attempts").notNull().default(0),
  lockedUntil: ts("locked_until"),
  lastError: text("last_error"),
  createdAt: createdAt(),
}, (t) => [index("jobs_due").on(t.runAt).where(sql`locked_until is null`)]);

export const idempotencyKeys = pgTable("idempotency_keys", {
  projectId: projectRef(),
  key: text("key").notNull(),
  /** Which operation and body the key was first used with (SHA-256). */
  requestHash: text("request_hash").notNull(),
  state: text("state").notNull(), // in_flight | done
  responseStatus: integer("response_status"),
  responseBody: jsonb("response_body"),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.key] })]);

export const contacts = pgTable("contacts", {
  id: text("id").primaryKey(),
  projectId: projectRef(),
  email: text("email").notNull(),
  firstName: text("first_name"),
  lastName: text("last_name"),
  subscribed: boolean("subscribed").notNull().default(true),
  unsubscribedAt: ts("unsubscribed_at"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("contacts_project_email").on(t.projectId, t.email)]);

export const templates = pgTable("templates", {
  id: text("id").primaryKey(),
  projectId: projectRef(),
  slug: text("slug"),
  name: text("name").notNull(),
  subject: text("subject").notNull(),
  html: text("html"),
  text: text("text"),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("templates_project_slug").on(t.projectId, t.slug)]);

export const suppressions = pgTable("suppressions", {
  projectId: projectRef(),
  email: text("email").notNull(),
  reason: text("reason").notNull(),
  messageId: text("message_id"),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.email] })]);

export const webhooks = pgTable("webhooks", {
  id: text("id").primaryKey(),
  projectId: projectRef(),
  url: text("url").notNull(),
  enabled: boolean("enabled").notNull().default(true),
  eventTypes: jsonb("event_types").$type<string[]>().notNull(),
  /** Kept to sign deliveries; shown to a client only in the create response. */
  secret: text("secret").notNull(),
  createdAt: createdAt(),
  deletedAt: ts("deleted_at"),
});

/** One row per delivery per endpoint (an event; a message's past events, for the demo's hand-over); also the retry queue of deliveries. */
export const webhookDeliveries = pgTable("webhook_deliveries", {
  id: text("id").primaryKey(),
  webhookId: text("webhook_id").notNull().references(() => webhooks.id),
  eventType: text("event_type").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown> | Record<string, unknown>[]>().notNull(),
  state: text("state").notNull().default("pending"), // pending | delivered | failed | cancelled
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
  lockedUntil: ts("locked_until"),
  lastStatus: integer("last_status"),
  lastError: text("last_error"),
  createdAt: createdAt(),
  deliveredAt: ts("delivered_at"),
}, (t) => [index("webhook_deliveries_due").on(t.state, t.nextAttemptAt)]);

/**
 * A project the seed gave a demo history (service/seed/): how much, and the hand-over of that
 * past to the project's first webhook endpoint, which a background job delivers batch by batch.
 */
export const demoHistories = pgTable("demo_histories", {
  projectId: text("project_id").primaryKey().references(() => projects.id),
  messages: integer("messages").notNull(),
  events: integer("events").notNull(),
  seededAt: ts("seeded_at").notNull().defaultNow(),
  /**
   * Endpoints created before the hand-over started, each with the last event id recorded before
   * it existed (later events reached it live). The oldest still there when it starts gets the past.
   */
  replayCandidates: jsonb("replay_candidates").$type<{ webhookId: string; cutoff: number }[]>().notNull().default([]),
  /** The endpoint that receives the past; set once, when the hand-over starts. */
  replayWebhookId: text("replay_webhook_id").references(() => webhooks.id),
  /** Its cut: events up to this id are handed over. */
  replayCutoffEventId: bigint("replay_cutoff_event_id", { mode: "number" }),
  /** Keyset of the last message handed over (newest first) and the batch count, so a job that runs twice delivers once. */
  replayCursorAt: ts("replay_cursor_at"),
  replayCursorId: text("replay_cursor_id"),
  replayBatch: integer("replay_batch").notNull().default(0),
  /** Events the hand-over has put into deliveries so far (past events of the types the endpoint takes). */
  replayDeliveries: integer("replay_deliveries").notNull().default(0),
  replayFinishedAt: ts("replay_finished_at"),
});
