import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { userIdColumn } from "./core";

/**
 * Per user and kind of work, limits every dashboard instance on the database shares
 * (lib/server/webhook-tools/user-claims.ts): whether one is running (`running_until`, a lease,
 * so an instance that died mid-work frees it) and when the recent ones started (`recent`, the
 * last window's only). One row per user and kind, so the table is bounded by the users.
 */
export const userWorkClaims = pgTable(
  "user_work_claims",
  {
    kind: text("kind").notNull(),
    userId: userIdColumn(),
    runningUntil: at("running_until"),
    recent: at("recent").array().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.kind, t.userId] })],
);
