import { bigint, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, generatedId } from "./columns";
import { userIdColumn } from "./core";

/**
 * A user's passkeys (WebAuthn credentials; lib/server/auth/passkeys.ts), several per user, each
 * named. `credentialId` is the authenticator's id (base64url), unique across users, and
 * `publicKey` its COSE public key (base64url) — neither is a secret. `counter` is the signature
 * counter last seen (0 for authenticators that keep none).
 */
export const webauthnCredentials = pgTable(
  "webauthn_credentials",
  {
    id: generatedId(),
    userId: userIdColumn(),
    credentialId: text("credential_id").notNull().unique(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    name: text("name").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    lastUsedAt: at("last_used_at"),
  },
  (t) => [index("webauthn_credentials_user_idx").on(t.userId)],
);

/**
 * The one challenge each user has outstanding per purpose (adding a passkey, the second step of
 * sign-in, the step-up): a new one replaces it, and checking one deletes it first, so each is
 * good once and for CHALLENGE_TTL_MS. A table rather than a cookie: a sealed cookie could be
 * sent again within its lifetime, and every instance sharing the database sees the use.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    userId: userIdColumn(),
    purpose: text("purpose").notNull(),
    challenge: text("challenge").notNull(),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.purpose] })],
);
