import { pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { userIdColumn } from "./core";

/**
 * The last time each user confirmed their password again (lib/server/gate/reauth). Sign-in time
 * lives in the session token and cannot be moved forward without re-issuing it, so a
 * re-confirmation is recorded here instead and counts the same.
 */
export const reauthConfirmations = pgTable("reauth_confirmations", {
  userId: userIdColumn().primaryKey(),
  confirmedAt: at("confirmed_at").notNull(),
});
