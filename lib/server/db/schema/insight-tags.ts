import { boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, outcomeCountColumns } from "./columns";
import { projectIdColumn } from "./core";

/**
 * Insight per tag (the Tags screen, lib/server/insight/tags.ts): the same figures as
 * `insight_hourly`, per `name=value` tag, kept by the same refresher from the same dirty
 * marks, so every write path of the index keeps them right, a tag known only later included.
 *
 * A project keeps at most INSIGHT_TAG_PAIRS_MAX pairs (`insight_tag_keys`): a pair beyond
 * them is counted under the "other tags" row (name and value both ''), so a project tagging
 * each message with its own order number cannot grow the rollup by a row per message.
 */

/** The pairs a project's rollup keeps, and the newest `at` of their messages (a pair unused for longer than the longest period frees its place). */
export const insightTagKeys = pgTable(
  "insight_tag_keys",
  {
    projectId: projectIdColumn(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    lastAt: at("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name, t.value] })],
);

/** One row per counted message and kept pair (or '' '' for "other tags", once): what the tag rollup holds for it. */
export const insightTagFacts = pgTable(
  "insight_tag_facts",
  {
    messageId: text("message_id").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    projectId: projectIdColumn(),
    /** The message's facts (insight_facts), copied so the edges of a window read this table alone. */
    at: at("at").notNull(),
    outcome: text("outcome").notNull(),
    opened: boolean("opened").notNull(),
    clicked: boolean("clicked").notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.name, t.value] }), index("insight_tag_facts_project_at_idx").on(t.projectId, t.at)],
);

/** The rollup: per project, hour (UTC, of `at`) and tag pair, the messages by outcome. */
export const insightTagHourly = pgTable(
  "insight_tag_hourly",
  {
    projectId: projectIdColumn(),
    hour: at("hour").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    ...outcomeCountColumns(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour, t.name, t.value] })],
);
