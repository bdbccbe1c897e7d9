import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { at, generatedId } from "./columns";
import { userIdColumn } from "./core";

/**
 * A user's authenticator app (TOTP, RFC 6238; lib/server/auth/totp.ts). The secret is sealed
 * with a key derived from AUTH_SECRET (event-stream/secret-box.ts), never kept in plain text.
 * `enabledAt` stays null while the user is enrolling: the factor counts only once a correct
 * code confirmed it. `lastStep` is the time step of the last code accepted, so the same code
 * (or an older one) is refused within its window.
 */
export const totpFactors = pgTable("totp_factors", {
  userId: userIdColumn().primaryKey(),
  secretSealed: text("secret_sealed").notNull(),
  enabledAt: at("enabled_at"),
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: at("created_at").notNull().defaultNow(),
});

/**
 * Recovery codes: only a keyed hash of each (lib/server/auth/recovery-codes.ts); `usedAt` marks
 * the one use a code has. A new set replaces the old one.
 */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: generatedId(),
    userId: userIdColumn(),
    codeHash: text("code_hash").notNull(),
    usedAt: at("used_at"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/**
 * Roles whose users must have a second factor (an admin's setting, lib/server/two-factor-policy.ts).
 * A password user of such a role without one is led to the Account screen to set it up before
 * anything else (the guard, gate/access.ts); single-sign-on users rely on their identity provider.
 */
export const twoFactorRequiredRoles = pgTable("two_factor_required_roles", {
  role: text("role").primaryKey(),
  setAt: at("set_at").notNull().defaultNow(),
});
