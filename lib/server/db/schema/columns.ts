import { integer, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Column builders every table file uses, so a kind of column is declared once. Ids are text
 * (crypto.randomUUID) so rows can be created before insert and compared across PGlite and
 * Postgres without driver differences.
 */
export const generatedId = () => text("id").primaryKey().$defaultFn(() => crypto.randomUUID());

/** A point in time: timestamptz, read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The claim of an outbox row worked off with FOR UPDATE SKIP LOCKED: who holds it and until
 * when (a claim left by an instance that died expires), failed attempts and the last error.
 */
export const leaseColumns = () => ({
  attempts: integer("attempts").notNull().default(0),
  claimedBy: text("claimed_by"),
  leaseUntil: at("lease_until"),
  lastError: text("last_error"),
});

/** An insight rollup's row: its messages by outcome, opened and clicked (insight_hourly, insight_tag_hourly). */
export const outcomeCountColumns = () => ({
  sent: integer("sent").notNull().default(0),
  delivered: integer("delivered").notNull().default(0),
  bounced: integer("bounced").notNull().default(0),
  complained: integer("complained").notNull().default(0),
  rejected: integer("rejected").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  opened: integer("opened").notNull().default(0),
  clicked: integer("clicked").notNull().default(0),
});
