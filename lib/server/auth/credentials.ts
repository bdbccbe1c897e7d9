import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { isAppError } from "@/lib/errors";
import { recordAudit, recordAuditCount } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { users, type UserRow } from "@/lib/server/db/schema/core";
import { networkOf } from "@/lib/net/ip-ranges";
import { DUMMY_HASH, verifyPassword } from "./password";
import { busyMessage, PASSWORD_BUSY, PASSWORD_RETRY_AFTER_S } from "./password-pool";
import { hasSecondFactor } from "./second-factor";
import { issueTicket } from "./sign-in-ticket";
import { forgiveAttempt, takeAttempt, throttleKeys, waitInWords, type Refusal } from "./throttle";

export const INVALID_CREDENTIALS = "Email or password is incorrect.";
export const INVALID_CODE = "That code is not correct. Try a new code from your app, or a recovery code.";
export const INVALID_PASSKEY = "That passkey was not accepted. Try it again, or use a code.";
export const EXPIRED_TICKET = "Your sign-in took too long. Enter your email and password again.";
export const throttledMessage = (waitMs: number) => `Too many sign-in attempts. Try again in ${waitInWords(waitMs)}.`;

/**
 * The sign-in form's words for a refused sign-in, from the only thing that reaches it: the
 * error's code (next-auth.ts: `throttled_<ms>`, `busy_<ms>`, `invalid_code`, `expired`; anything
 * else is a wrong email or password).
 */
export function refusalMessage(code: string): string {
  if (code === "invalid_code") return INVALID_CODE;
  if (code === "expired") return EXPIRED_TICKET;
  const refused = /^(throttled|busy)_(\d{1,12})$/.exec(code);
  if (!refused) return INVALID_CREDENTIALS;
  return refused[1] === "busy" ? busyMessage(Number(refused[2])) : throttledMessage(Number(refused[2]));
}

export type SignInCheck =
  | { ok: true; user: UserRow }
  | { ok: false; reason: "invalid" }
  /** The password was right and the user has a second factor: no session yet, only the ticket (sign-in-ticket.ts). */
  | { ok: false; reason: "second_factor"; ticket: string }
  | { ok: false; reason: "throttled"; waitMs: number }
  | { ok: false; reason: "busy"; waitMs: number };

/**
 * Checks an email and password. The attempt is counted first (lib/server/auth/throttle.ts),
 * and a throttled attempt is refused before the password is looked at, whether or not the
 * account exists. An unknown email, a wrong password and a disabled account get the same
 * answer and cost the same bcrypt time. `now` is the attempt's time (tests hold the clock).
 */
export async function checkCredentials(emailInput: string, password: string, address: string, now = Date.now()): Promise<SignInCheck> {
  const started = performance.now();
  const email = emailInput.trim().toLowerCase();
  const keys = throttleKeys(email, address);
  const d = await db();
  const [user] = await d.select().from(users).where(eq(users.email, email)).limit(1);
  // An unknown email is counted on its pair and network like an account, but gets no account rows (throttle.ts).
  const attempt = await takeAttempt(keys, now, { exists: Boolean(user) });

  if (!attempt.allowed) {
    if (user && attempt.refusal) await auditRefusals(user, address, attempt.refusal);
    await settle(started);
    return { ok: false, reason: "throttled", waitMs: attempt.waitMs };
  }

  let matches: boolean;
  try {
    matches = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  } catch (e) {
    // Too many checks under way in the process (password-pool.ts): nothing was compared. The
    // attempt stays counted, as the throttle counted it; the answer waits like a refused one.
    if (!isAppError(e) || e.code !== PASSWORD_BUSY) throw e;
    await settle(started);
    return { ok: false, reason: "busy", waitMs: e.retryAfterMs ?? PASSWORD_RETRY_AFTER_S * 1000 };
  }
  if (!user || !user.passwordHash || !matches || !user.active) {
    if (user) await auditSignIn(user, "failure", !user.active && matches ? "disabled" : "wrong password", address);
    return { ok: false, reason: "invalid" };
  }
  // The attempt stays counted until the second factor is right (second-step.ts): forgiving it
  // here would let whoever holds the password reset the count between guesses at the code.
  if (await hasSecondFactor(user.id)) return { ok: false, reason: "second_factor", ticket: issueTicket(user.id, user.passwordHash, now) };
  return completeSignIn(user, keys, address, now, "password");
}

/** The sign-in succeeded: the attempt forgiven, the time and the audit entry written. */
export async function completeSignIn(user: UserRow, keys: ReturnType<typeof throttleKeys>, address: string, now: number, method: string, passkey?: string): Promise<SignInCheck> {
  await forgiveAttempt(keys, now);
  const d = await db();
  await d.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await auditSignIn(user, "success", null, address, method, passkey);
  return { ok: true, user };
}

/**
 * A refused try has no bcrypt to hide behind, and an existing account's costs two writes more
 * (its refusal count and audit entry): the answer waits until REFUSAL_FLOOR_MS after the try
 * began, so its time does not tell whether the account exists. A timer, no work.
 */
export const REFUSAL_FLOOR_MS = 30;
export async function settle(started: number): Promise<void> {
  // A loop, not one sleep: a timer counts from the event loop's cached clock, so it can fire a
  // fraction of a millisecond before the floor as performance.now() measures it.
  for (let left = started + REFUSAL_FLOOR_MS - performance.now(); left > 0; left = started + REFUSAL_FLOOR_MS - performance.now()) {
    await sleep(Math.ceil(left));
  }
}

/** `passkey`: the name of the passkey that answered, kept as `device` (the audit drops a key named like a secret, `…key`). */
export function auditSignIn(user: UserRow, outcome: "success" | "failure", reason: string | null, address: string, method = "password", passkey?: string) {
  return recordAudit({
    actor: { id: user.id, email: user.email },
    action: "auth.sign_in",
    target: user.email,
    outcome,
    detail: { method, address, ...(reason ? { reason } : {}), ...(passkey ? { device: passkey } : {}) },
  });
}

/** Throttled tries from one network at one account: one entry per window, its count kept up to date; `address` is the latest. */
export function auditRefusals(user: UserRow, address: string, refusal: Refusal) {
  return recordAuditCount(refusal.auditId, {
    actor: { id: user.id, email: user.email },
    action: "auth.sign_in",
    target: user.email,
    outcome: "failure",
    detail: { method: "password", address, network: networkOf(address), reason: "throttled", count: refusal.count, since: refusal.since.toISOString(), lastAt: new Date().toISOString() },
  });
}
