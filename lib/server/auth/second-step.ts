import "server-only";
import { eq } from "drizzle-orm";
import { db } from "../db";
import { users } from "../db/schema/core";
import { auditRefusals, auditSignIn, completeSignIn, settle, type SignInCheck } from "./credentials";
import { useSecondFactor } from "./second-factor";
import { passwordVersion, readTicket } from "./sign-in-ticket";
import { takeAttempt, throttleKeys } from "./throttle";

export type SecondStepCheck = SignInCheck | { ok: false; reason: "expired" };

/**
 * The second step of a sign-in: the ticket the password step handed out, and a code (the
 * authenticator app's, or a recovery code). A wrong code is counted on the same throttle keys
 * as a wrong password — the guess budget is one for both — and audited; only a right code
 * completes the sign-in (the session is created by the caller, next-auth.ts, after this).
 */
export async function checkSecondStep(ticket: string, code: string, address: string, now = Date.now()): Promise<SecondStepCheck> {
  const started = performance.now();
  const read = readTicket(ticket, now);
  if (!read) return { ok: false, reason: "expired" };
  const d = await db();
  const [user] = await d.select().from(users).where(eq(users.id, read.userId)).limit(1);
  // Disabled, removed or turned into a single-sign-on account since the password step, or its
  // password changed or reset since (the ticket was for the old one).
  if (!user || !user.active || !user.passwordHash || passwordVersion(user.passwordHash) !== read.passwordVersion) return { ok: false, reason: "expired" };

  const keys = throttleKeys(user.email, address);
  const attempt = await takeAttempt(keys, now);
  if (!attempt.allowed) {
    if (attempt.refusal) await auditRefusals(user, address, attempt.refusal);
    await settle(started);
    return { ok: false, reason: "throttled", waitMs: attempt.waitMs };
  }
  const factor = await useSecondFactor(user.id, code, now);
  if (!factor) {
    await auditSignIn(user, "failure", "wrong code", address, "password+code");
    await settle(started);
    return { ok: false, reason: "invalid" };
  }
  return completeSignIn(user, keys, address, now, `password+${factor}`);
}
