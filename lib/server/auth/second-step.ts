import "server-only";
import { eq } from "drizzle-orm";
import { db } from "../db";
import { users, type UserRow } from "../db/schema/core";
import { auditRefusals, auditSignIn, completeSignIn, settle, type SignInCheck } from "./credentials";
import { useFactorProof, type FactorProof } from "./second-factor";
import { authenticationOptions, hasPasskey } from "./passkeys";
import { totpEnabled } from "./totp";
import { passwordVersion, readTicket } from "./sign-in-ticket";
import { takeAttempt, throttleKeys } from "./throttle";

/**
 * The user a ticket names, or null when the ticket is no good or the user is disabled, removed
 * or turned into a single-sign-on account since the password step, or its password was changed
 * or reset since (the ticket was for the old one).
 */
async function ticketUser(ticket: string, now: number): Promise<UserRow | null> {
  const read = readTicket(ticket, now);
  if (!read) return null;
  const d = await db();
  const [user] = await d.select().from(users).where(eq(users.id, read.userId)).limit(1);
  if (!user || !user.active || !user.passwordHash || passwordVersion(user.passwordHash) !== read.passwordVersion) return null;
  return user;
}

export type SecondStepCheck = SignInCheck | { ok: false; reason: "expired" };

/**
 * The second step of a sign-in: the ticket the password step handed out, and a code (the
 * authenticator app's, or a recovery code) or a passkey's answer to the challenge the sign-in
 * page asked for (passkeyChallengeFor below). A wrong code is counted on the same throttle keys
 * as a wrong password — the guess budget is one for both — and audited; only a right code
 * completes the sign-in (the session is created by the caller, next-auth.ts, after this).
 */
export async function checkSecondStep(ticket: string, proof: string | FactorProof, address: string, now = Date.now()): Promise<SecondStepCheck> {
  const started = performance.now();
  const user = await ticketUser(ticket, now);
  if (!user) return { ok: false, reason: "expired" };

  const keys = throttleKeys(user.email, address);
  const attempt = await takeAttempt(keys, now);
  if (!attempt.allowed) {
    if (attempt.refusal) await auditRefusals(user, address, attempt.refusal);
    await settle(started);
    return { ok: false, reason: "throttled", waitMs: attempt.waitMs };
  }
  const offered: FactorProof = typeof proof === "string" ? { code: proof } : proof;
  const match = await useFactorProof(user.id, offered, "sign_in", now);
  if (!match) {
    const passkey = "assertion" in offered;
    await auditSignIn(user, "failure", passkey ? "passkey refused" : "wrong code", address, passkey ? "password+passkey" : "password+code");
    await settle(started);
    return { ok: false, reason: "invalid" };
  }
  return completeSignIn(user, keys, address, now, `password+${match.factor}`, match.passkey);
}

/**
 * The challenge for a passkey at the second step, for the user the ticket names (and only
 * while the ticket holds): null when the ticket is no good or the user has no passkey.
 */
export async function passkeyChallengeFor(ticket: string, now = Date.now()) {
  const user = await ticketUser(ticket, now);
  return user ? authenticationOptions(user.id, "sign_in", now) : null;
}

/** Which second factors the ticket's user has (the sign-in page offers those); none when the ticket is no good. */
export async function ticketFactors(ticket: string, now = Date.now()): Promise<{ totp: boolean; passkey: boolean }> {
  const user = await ticketUser(ticket, now);
  if (!user) return { totp: false, passkey: false };
  const [totp, passkey] = await Promise.all([totpEnabled(user.id), hasPasskey(user.id)]);
  return { totp, passkey };
}
