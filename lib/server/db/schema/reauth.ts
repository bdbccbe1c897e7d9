import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./core";

/**
 * The last time each user confirmed their password again (lib/server/reauth). Sign-in time
 * lives in the session token and cannot be moved forward without re-issuing it, so a
 * re-confirmation is recorded here instead and counts the same.
 */
export const reauthConfirmations = pgTable("reauth_confirmations", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }).notNull(),
});
