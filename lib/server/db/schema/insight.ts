import { bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, generatedId, leaseColumns, outcomeCountColumns } from "./columns";
import { projectIdColumn } from "./core";

/**
 * Insight: engagement, deliverability by mailbox provider, and the figures alerts are checked
 * against (lib/server/insight). Counting a month of a busy project's messages row by row is
 * too slow for a screen, so the numbers come from hourly rollups kept beside the index:
 *
 * - every write path of the index marks the messages it touched in `insight_dirty` (one
 *   cheap insert; a message marked again gets another row, which the refresher takes with the
 *   first);
 * - the refresher (lib/server/insight/refresh.ts) recomputes each marked message's facts
 *   from the index — its provider, outcome, opened, clicked — and moves the rollups by the
 *   difference between the old facts and the new. Recomputing from the state, never adding
 *   "an event happened", is what makes repeated and out-of-order writes harmless.
 */
/** Once-only work of the insight tables (`backfill`: every message already indexed was marked once). */
export const insightMeta = pgTable("insight_meta", {
  key: text("key").primaryKey(),
  doneAt: at("done_at").notNull().defaultNow(),
});

/**
 * Messages whose facts must be recomputed: a queue with a row per mark, not per message. With
 * the message id as its key, a writer marking a message the refresher was taking waited for
 * the refresher's whole batch to commit (on a unique key a pending delete decides whether
 * the insert conflicts), and on Postgres the ingest, which marks in its own transaction, sat
 * behind it: bench:ingest saw one in fifty of its transactions stalled 50–80 ms. Without a
 * unique key an insert never waits; the refresher takes a message's rows together.
 */
export const insightDirty = pgTable("insight_dirty", {
  seq: bigserial("seq", { mode: "number" }).primaryKey(),
  messageId: text("message_id").notNull(),
  projectId: text("project_id").notNull(),
  markedAt: at("marked_at").notNull().defaultNow(),
});

/**
 * One row per outbound message counted by insight (not the dashboard's own alert emails):
 * what the rollups hold for it. `at` is when it went out (its scheduled time when later than
 * its creation), so a message waiting for its time counts from then.
 */
export const insightFacts = pgTable(
  "insight_facts",
  {
    messageId: text("message_id").primaryKey(),
    projectId: projectIdColumn(),
    at: at("at").notNull(),
    /** First recipient, lower-cased bare address. */
    recipient: text("recipient").notNull(),
    domain: text("domain").notNull(),
    /** PROVIDER_KEYS (lib/insight/providers.ts). */
    provider: text("provider").notNull(),
    /** `delivered`, `bounced`, `complained`, `rejected`, `failed`, or `pending` (no outcome yet). */
    outcome: text("outcome").notNull(),
    opened: boolean("opened").notNull(),
    clicked: boolean("clicked").notNull(),
  },
  (t) => [index("insight_facts_project_at_idx").on(t.projectId, t.at), index("insight_facts_domain_idx").on(t.domain, t.provider)],
);

/** The rollup: per project, hour (UTC, of `at`) and provider, the messages by outcome. */
export const insightHourly = pgTable(
  "insight_hourly",
  {
    projectId: projectIdColumn(),
    hour: at("hour").notNull(),
    provider: text("provider").notNull(),
    ...outcomeCountColumns(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour, t.provider] })],
);

/** Each link clicked in a message, once (links without their query string or fragment). */
export const insightLinkClicks = pgTable(
  "insight_link_clicks",
  {
    messageId: text("message_id").notNull(),
    link: text("link").notNull(),
    projectId: projectIdColumn(),
    /** The message's `at`. */
    at: at("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.link] })],
);

/** Rollup of the link clicks: messages per project, hour and link. */
export const insightLinkHourly = pgTable(
  "insight_link_hourly",
  {
    projectId: projectIdColumn(),
    hour: at("hour").notNull(),
    link: text("link").notNull(),
    messages: integer("messages").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour, t.link] })],
);

/**
 * Who clicked a link: per project, link and recipient, the newest `at` of their messages in
 * which it was clicked. "Clicked in the last N days" is `last_at >= now - N days`, so unique
 * clickers of a period are a count, not a count of distinct values.
 */
export const insightLinkRecipients = pgTable(
  "insight_link_recipients",
  {
    projectId: projectIdColumn(),
    link: text("link").notNull(),
    recipient: text("recipient").notNull(),
    lastAt: at("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.link, t.recipient] }), index("insight_link_recipients_recent_idx").on(t.projectId, t.link, t.lastAt)],
);

/**
 * Rollup of `insight_link_recipients`: per project, link and hour, the people whose newest
 * click on the link falls in that hour. "Clicked in the last N days" is then a sum over at
 * most 720 hourly rows per link instead of a count over every clicker (a million of them at
 * ten million messages). Kept by the refresher, the retention prune and the erasure, each
 * moving it by the rows it changed, under the refresher's lock.
 */
export const insightLinkPeopleHourly = pgTable(
  "insight_link_people_hourly",
  {
    projectId: projectIdColumn(),
    link: text("link").notNull(),
    hour: at("hour").notNull(),
    people: integer("people").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.link, t.hour] })],
);

/**
 * Recipient domains and their mailbox provider: from the list of consumer domains, or from
 * the domain's MX hosts, looked up in the background and kept until `expiresAt`. `provider`
 * null: not known yet (counted as Other until then).
 */
export const insightDomains = pgTable(
  "insight_domains",
  {
    domain: text("domain").primaryKey(),
    provider: text("provider"),
    /** `list`, `mx` (MX hosts recognised or not), `none` (no MX), `error` (lookup failed; retried soon), `pending`. */
    source: text("source").notNull(),
    mx: text("mx"),
    lastError: text("last_error"),
    attempts: integer("attempts").notNull().default(0),
    checkedAt: at("checked_at"),
    /** When to look again; a lookup under way holds it a little ahead (its lease). */
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [index("insight_domains_expires_idx").on(t.expiresAt)],
);

/**
 * Per project: the alert thresholds (fractions, null = the default) and the optional
 * webhook. The webhook's signing secret is sealed like the event stream's (secret-box).
 */
export const alertSettings = pgTable("alert_settings", {
  projectId: projectIdColumn().primaryKey(),
  bounceWarning: doublePrecision("bounce_warning"),
  bounceLimit: doublePrecision("bounce_limit"),
  complaintWarning: doublePrecision("complaint_warning"),
  complaintLimit: doublePrecision("complaint_limit"),
  webhookUrl: text("webhook_url"),
  webhookSecretCiphertext: text("webhook_secret_ciphertext"),
  updatedAt: at("updated_at").notNull().defaultNow(),
  updatedBy: text("updated_by"),
});

/**
 * Where each project's metric stands: `ok`, `warning` or `limit`, and `episode`, which moves
 * on every change. A change is claimed by the one conditional UPDATE that moves it (level and
 * episode as read), so dashboards sharing the database record and notify it once.
 */
export const alertStates = pgTable(
  "alert_states",
  {
    projectId: projectIdColumn(),
    /** `bounce` or `complaint`. */
    metric: text("metric").notNull(),
    level: text("level").notNull().default("ok"),
    episode: integer("episode").notNull().default(0),
    /** The windows as last evaluated: rate, volume, enough volume. */
    windows: jsonb("windows").$type<AlertWindowFigures[]>().notNull().default([]),
    since: at("since").notNull().defaultNow(),
    evaluatedAt: at("evaluated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.metric] })],
);

export type AlertWindowFigures = { window: string; rate: number | null; count: number; volume: number; enough: boolean; level: string };

/** The history: one row per change of a metric's level, unique per (project, metric, episode). */
export const alertEvents = pgTable(
  "alert_events",
  {
    id: generatedId(),
    projectId: projectIdColumn(),
    metric: text("metric").notNull(),
    episode: integer("episode").notNull(),
    level: text("level").notNull(),
    previousLevel: text("previous_level").notNull(),
    /** `raised` (a level crossed upwards), `lowered` (down, still above warning), `recovered` (back to ok). */
    kind: text("kind").notNull(),
    /** The window that decided the level, and every window's figures. */
    window: text("window").notNull(),
    rate: doublePrecision("rate"),
    threshold: doublePrecision("threshold"),
    windows: jsonb("windows").$type<AlertWindowFigures[]>().notNull(),
    /** Why nobody was or could be notified, when so. */
    note: text("note"),
    at: at("at").notNull().defaultNow(),
  },
  (t) => [
    index("alert_events_project_at_idx").on(t.projectId, t.at.desc()),
    // The claim's second lock: one row per change, whoever evaluates.
    uniqueIndex("alert_events_episode_idx").on(t.projectId, t.metric, t.episode),
  ],
);

/**
 * The outbox of notifications: an email per admin and the webhook, per alert event. Sent by
 * the background loop with a lease (FOR UPDATE SKIP LOCKED), each with its own Idempotency-Key
 * derived from the alert, so a send retried after a crash is the same send.
 */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: generatedId(),
    alertEventId: text("alert_event_id")
      .notNull()
      .references(() => alertEvents.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    /** `email` or `webhook`. */
    channel: text("channel").notNull(),
    /** The admin's address, or the webhook URL. */
    target: text("target").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** `pending`, `sent`, `failed` (gave up), `skipped` (nothing could send it; `lastError` says why). */
    status: text("status").notNull().default("pending"),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    ...leaseColumns(),
    /** The service's message id of the email. */
    messageId: text("message_id"),
    sentAt: at("sent_at"),
  },
  (t) => [index("alert_deliveries_due_idx").on(t.status, t.nextAttemptAt), uniqueIndex("alert_deliveries_target_idx").on(t.alertEventId, t.channel, t.target)],
);

export type InsightFactRow = typeof insightFacts.$inferSelect;
export type AlertEventRow = typeof alertEvents.$inferSelect;
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
export type AlertSettingsRow = typeof alertSettings.$inferSelect;
