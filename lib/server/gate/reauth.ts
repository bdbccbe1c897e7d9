import "server-only";
import { eq } from "drizzle-orm";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { AppError } from "@/lib/errors";
import type { PasskeyAssertion } from "@/lib/schemas/passkeys";
import type { ReconfirmResponse } from "@/lib/schemas/users";
import { withAudit } from "../audit";
import { verifyPassword } from "../auth/password";
import { authenticationOptions } from "../auth/passkeys";
import { useFactorProof, type FactorProof } from "../auth/second-factor";
import { forgiveAttempt, takeAttempt, throttleKeys, waitInWords } from "../auth/throttle";
import { db } from "../db";
import { users } from "../db/schema/core";
import { reauthConfirmations } from "../db/schema/reauth";
import { env } from "../env";
import type { Actor } from "./guard";

/**
 * Creating a key or a webhook hands out a secret that grants access to mail: an admin whose
 * sign-in (or last re-confirmation) is older than REAUTH_MAX_AGE_S confirms the password
 * first, so an unattended signed-in browser is not enough to mint one.
 */
export const REAUTH_REQUIRED = "reauth_required";

export function reauthMaxAgeMs(): number {
  return env().REAUTH_MAX_AGE_S * 1000;
}

/** Pure rule: is the most recent of sign-in and re-confirmation within the limit? */
export function isRecent(authAt: number | null, confirmedAt: number | null, now: number, maxAgeMs: number): boolean {
  const last = Math.max(authAt ?? 0, confirmedAt ?? 0);
  return last > 0 && now - last <= maxAgeMs;
}

async function lastConfirmation(userId: string): Promise<number | null> {
  const d = await db();
  const [row] = await d.select().from(reauthConfirmations).where(eq(reauthConfirmations.userId, userId)).limit(1);
  return row ? row.confirmedAt.getTime() : null;
}

/** Throws 403 `reauth_required` unless the user signed in or confirmed the password recently. */
export async function requireRecentAuth(user: Actor, now = Date.now()): Promise<void> {
  if (isRecent(user.authAt, await lastConfirmation(user.id), now, reauthMaxAgeMs())) return;
  throw new AppError(403, REAUTH_REQUIRED, "Confirm it's you (your password, a code or a passkey) to continue: your sign-in is older than the limit for this action.");
}

/**
 * Counts a guess at something only the user knows (password, code) on the sign-in throttle's
 * keys, so guessing here uses up the same budget as at sign-in; 429 with the wait when spent.
 */
export async function takeThrottledAttempt(email: string, address: string): Promise<ReturnType<typeof throttleKeys>> {
  const keys = throttleKeys(email, address);
  const attempt = await takeAttempt(keys);
  if (!attempt.allowed) {
    const error = new AppError(429, "rate_limited", `Too many attempts. Try again in ${waitInWords(attempt.waitMs)}.`);
    error.retryAfterMs = attempt.waitMs;
    throw error;
  }
  return keys;
}

/**
 * Confirms the signed-in user again with the password or, for a user with a second factor, a
 * code from it (the authenticator app's or a recovery code), throttled and counted exactly like
 * sign-in, and records the confirmation.
 */
export async function reconfirm(user: Actor, input: { password?: string; code?: string; assertion?: PasskeyAssertion }, address: string): Promise<ReconfirmResponse> {
  if (input.code !== undefined) return reconfirmFactor(user, { code: input.code }, address);
  if (input.assertion !== undefined) return reconfirmFactor(user, { assertion: input.assertion }, address);
  return reconfirmPassword(user, input.password ?? "", address);
}

/** The step-up's challenge for a passkey (POST /api/auth/reconfirm/passkey); 409 when the user has none. */
export async function stepUpPasskeyOptions(user: Actor): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await authenticationOptions(user.id, "step_up");
  if (!options) throw new AppError(409, "no_passkey", "You have no passkey: confirm with your password or a code.");
  return options;
}

async function reconfirmFactor(user: Actor, proof: FactorProof, address: string): Promise<ReconfirmResponse> {
  const keys = await takeThrottledAttempt(user.email, address);
  const passkey = "assertion" in proof;
  return withAudit({ actor: user, action: "auth.reconfirm", target: user.email, detail: { method: passkey ? "passkey" : "code" } }, async () => {
    if (!(await useFactorProof(user.id, proof, "step_up"))) {
      if (passkey) throw new AppError(400, "invalid_passkey", "assertion: the passkey was not accepted — try again", "assertion");
      throw new AppError(400, "invalid_code", "code: is not correct", "code");
    }
    await forgiveAttempt(keys);
    return recordConfirmation(user.id);
  });
}

async function recordConfirmation(userId: string): Promise<ReconfirmResponse> {
  const d = await db();
  const confirmedAt = new Date();
  await d.insert(reauthConfirmations).values({ userId, confirmedAt }).onConflictDoUpdate({ target: reauthConfirmations.userId, set: { confirmedAt } });
  return { confirmedAt: confirmedAt.toISOString() };
}

async function reconfirmPassword(user: Actor, password: string, address: string): Promise<ReconfirmResponse> {
  const keys = await takeThrottledAttempt(user.email, address);
  const d = await db();
  const [row] = await d.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)).limit(1);
  if (!row?.hash) {
    throw new AppError(400, "no_password", "This account signs in without a password (single sign-on): sign out and in again instead.");
  }
  return withAudit({ actor: user, action: "auth.reconfirm", target: user.email }, async () => {
    if (!(await verifyPassword(password, row.hash!))) {
      throw new AppError(400, "invalid_password", "password: is not correct", "password");
    }
    await forgiveAttempt(keys);
    return recordConfirmation(user.id);
  });
}
