import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { z } from "zod";
import { PASSKEYS, type PasskeyAssertion, type PasskeyView, type passkeyRegistrationResponse } from "@/lib/schemas/passkeys";
import { db } from "../db";
import { users } from "../db/schema/core";
import { webauthnChallenges, webauthnCredentials } from "../db/schema/passkeys";
import { env } from "../env";

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server) as a second factor. The relying party is
 * the dashboard's configured public URL (PUBLIC_URL): its host is the RP ID and its origin the
 * only origin accepted, so an assertion made for any other site (or the same site reached by
 * another name) is refused. Each ceremony's challenge is stored per user and purpose, replaced
 * by a newer one and deleted when checked (webauthnChallenges), so it is good once.
 */
export type ChallengePurpose = "register" | "sign_in" | "step_up";
const RP_NAME = "Mail dashboard";

export function relyingParty(): { rpID: string; origin: string } {
  const url = new URL(env().PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin };
}

async function keepChallenge(userId: string, purpose: ChallengePurpose, challenge: string, now: number): Promise<void> {
  const d = await db();
  const expiresAt = new Date(now + PASSKEYS.challengeTtlMs);
  await d
    .insert(webauthnChallenges)
    .values({ userId, purpose, challenge, expiresAt })
    .onConflictDoUpdate({ target: [webauthnChallenges.userId, webauthnChallenges.purpose], set: { challenge, expiresAt } });
}

/** The outstanding challenge, deleted as it is read (so a second try finds none); null when none or expired. */
async function takeChallenge(userId: string, purpose: ChallengePurpose, now: number): Promise<string | null> {
  const d = await db();
  const [row] = await d
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.userId, userId), eq(webauthnChallenges.purpose, purpose)))
    .returning({ challenge: webauthnChallenges.challenge, expiresAt: webauthnChallenges.expiresAt });
  return row && row.expiresAt.getTime() > now ? row.challenge : null;
}

export async function countPasskeys(userId: string): Promise<number> {
  const d = await db();
  const [row] = await d.select({ n: count() }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
  return row?.n ?? 0;
}

export async function hasPasskey(userId: string): Promise<boolean> {
  return (await countPasskeys(userId)) > 0;
}

export async function listPasskeys(userId: string): Promise<PasskeyView[]> {
  const d = await db();
  const rows = await d.select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId)).orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt?.toISOString() ?? null }));
}

async function credentialsOf(userId: string) {
  const d = await db();
  return d.select({ id: webauthnCredentials.credentialId, transports: webauthnCredentials.transports }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
}

/** Options for `navigator.credentials.create()`: the user's passkeys are excluded, so one authenticator is not added twice. */
export async function registrationOptions(user: { id: string; email: string; name?: string | null }, now = Date.now()): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rpID } = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: await credentialsOf(user.id),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    timeout: PASSKEYS.challengeTtlMs,
  });
  await keepChallenge(user.id, "register", options.challenge, now);
  return options;
}

/** A name when the user gave none, from what the authenticator says of itself. */
function defaultName(deviceType: string, transports: string[]): string {
  if (deviceType === "multiDevice") return "Synced passkey";
  if (transports.some((t) => t === "usb" || t === "nfc" || t === "ble")) return "Security key";
  return "Passkey on this device";
}

export type NewPasskey = { credentialId: string; publicKey: string; counter: number; transports: string[]; suggestedName: string };

/**
 * Checks the authenticator's answer to the register challenge (origin, RP ID, challenge,
 * signature over the new key); null when it fails. The challenge is used up either way.
 */
export async function verifyRegistration(userId: string, response: z.output<typeof passkeyRegistrationResponse>, now = Date.now()): Promise<NewPasskey | null> {
  const challenge = await takeChallenge(userId, "register", now);
  if (!challenge) return null;
  const { rpID, origin } = relyingParty();
  try {
    const result = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
    if (!result.verified) return null;
    const { credential, credentialDeviceType } = result.registrationInfo;
    const transports = (response.response.transports ?? credential.transports ?? []).slice(0, 10);
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports,
      suggestedName: defaultName(credentialDeviceType, transports),
    };
  } catch {
    // A malformed or forged answer: @simplewebauthn throws on what it cannot read or verify.
    return null;
  }
}

/**
 * Stores a verified passkey; null when the user already has the most allowed. Counted under a
 * lock on the user's row, so two answers at once cannot both pass the limit.
 */
export async function storePasskey(userId: string, key: NewPasskey, name: string): Promise<{ id: string } | null> {
  const d = await db();
  return d.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [row] = await tx.select({ n: count() }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
    if ((row?.n ?? 0) >= PASSKEYS.perUser) return null;
    const [added] = await tx
      .insert(webauthnCredentials)
      .values({ userId, credentialId: key.credentialId, publicKey: key.publicKey, counter: key.counter, transports: key.transports, name })
      .onConflictDoNothing({ target: webauthnCredentials.credentialId })
      .returning({ id: webauthnCredentials.id });
    return added ?? null;
  });
}

/** Options for `navigator.credentials.get()`, naming the user's passkeys; null when the user has none. */
export async function authenticationOptions(userId: string, purpose: Exclude<ChallengePurpose, "register">, now = Date.now()): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const allowCredentials = await credentialsOf(userId);
  if (!allowCredentials.length) return null;
  const options = await generateAuthenticationOptions({ rpID: relyingParty().rpID, allowCredentials, userVerification: "preferred", timeout: PASSKEYS.challengeTtlMs });
  await keepChallenge(userId, purpose, options.challenge, now);
  return options;
}

/**
 * Checks an assertion against the user's outstanding challenge for `purpose` and the named
 * passkey of this user (a passkey of someone else is not found). The challenge is used up
 * whatever the outcome; on success the counter moves on in a conditional UPDATE, so two
 * answers with one counter value cannot both pass. Answers the passkey used, or null.
 */
export async function usePasskey(userId: string, purpose: Exclude<ChallengePurpose, "register">, assertion: PasskeyAssertion, now = Date.now()): Promise<{ id: string; name: string } | null> {
  const challenge = await takeChallenge(userId, purpose, now);
  if (!challenge) return null;
  const d = await db();
  const [row] = await d
    .select()
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.credentialId, assertion.id)))
    .limit(1);
  if (!row) return null;
  const { rpID, origin } = relyingParty();
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: row.credentialId, publicKey: isoBase64URL.toBuffer(row.publicKey), counter: row.counter, transports: row.transports },
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    return null;
  }
  const used = await d
    .update(webauthnCredentials)
    .set({ counter: newCounter, lastUsedAt: new Date(now) })
    .where(and(eq(webauthnCredentials.id, row.id), eq(webauthnCredentials.counter, row.counter)))
    .returning({ id: webauthnCredentials.id });
  return used.length ? { id: row.id, name: row.name } : null;
}

export async function renamePasskey(userId: string, id: string, name: string): Promise<{ from: string } | null> {
  const d = await db();
  const [row] = await d.select({ name: webauthnCredentials.name }).from(webauthnCredentials).where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.id, id))).limit(1);
  if (!row) return null;
  await d.update(webauthnCredentials).set({ name }).where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.id, id)));
  return { from: row.name };
}

export async function removePasskey(userId: string, id: string): Promise<{ name: string } | null> {
  const d = await db();
  const [row] = await d.delete(webauthnCredentials).where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.id, id))).returning({ name: webauthnCredentials.name });
  return row ?? null;
}

/** Every passkey of the user (an admin's reset); answers how many there were. */
export async function removeAllPasskeys(userId: string): Promise<number> {
  const d = await db();
  const rows = await d.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, userId)).returning({ id: webauthnCredentials.id });
  await d.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
  return rows.length;
}
