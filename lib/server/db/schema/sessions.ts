import { index, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { userIdColumn } from "./core";

/**
 * One row per sign-in. The session cookie carries only this row's id (and the user id); the
 * guard reads the row with the user on every request, so a session ends on the server the
 * moment it is revoked, or when it outlives SESSION_MAX_AGE_S from sign-in or sits unused
 * for SESSION_IDLE_S — whatever the cookie's own expiry says.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: userIdColumn(),
    signedInAt: at("signed_in_at").notNull(),
    /** Moved forward at most once a minute (lib/server/auth/sessions.ts), not on every request. */
    lastSeenAt: at("last_seen_at").notNull(),
    revokedAt: at("revoked_at"),
    /** sign_out, sign_out_everywhere, ended_by_admin, password_reset, disabled, role_change, two_factor_reset. */
    revokedReason: text("revoked_reason"),
    /** How the user signed in: password or oidc. */
    method: text("method").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;
