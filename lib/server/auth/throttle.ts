import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "../db";
import { loginThrottle } from "../db/schema/core";
import { env } from "../env";

/**
 * Sign-in attempts, counted per account and per client address in a fixed window of
 * LOGIN_THROTTLE_WINDOW_S from the first attempt. An account locks after LOGIN_THROTTLE_MAX
 * attempts; an address after four times as many, since several people may share one (an
 * office, a VPN).
 *
 * Every attempt is counted and recorded by ONE statement before the password is looked at
 * (`takeAttempt`): an upsert per key, so parallel attempts queue on the key's row and each
 * sees the count the others left. A check followed by a separate write would let a burst of
 * parallel guesses all pass the check. A correct password then gives its attempt back.
 */
export const ADDRESS_FACTOR = 4;

export type ThrottleKeys = { account: string; address: string };

export function throttleKeys(email: string, address: string): ThrottleKeys {
  return { account: `account:${email.trim().toLowerCase()}`, address: `address:${address}` };
}

function limits() {
  const e = env();
  return { windowMs: e.LOGIN_THROTTLE_WINDOW_S * 1000, account: e.LOGIN_THROTTLE_MAX, address: e.LOGIN_THROTTLE_MAX * ADDRESS_FACTOR };
}

export type Attempt = { allowed: true } | { allowed: false; waitMs: number };

/**
 * Counts this attempt against both keys and answers whether it may go on to the password
 * check. A window that has run out starts again at this attempt.
 */
export async function takeAttempt(keys: ThrottleKeys, now = Date.now()): Promise<Attempt> {
  const { windowMs, account, address } = limits();
  const at = new Date(now);
  const expired = new Date(now - windowMs);
  const d = await db();
  // As text with a cast: postgres.js cannot bind a bare Date inside raw SQL.
  const restart = sql`${loginThrottle.windowStart} <= ${expired.toISOString()}::timestamptz`;
  const rows = await d
    .insert(loginThrottle)
    .values([
      { key: keys.account, windowStart: at, attempts: 1 },
      { key: keys.address, windowStart: at, attempts: 1 },
    ])
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        attempts: sql`case when ${restart} then 1 else ${loginThrottle.attempts} + 1 end`,
        windowStart: sql`case when ${restart} then excluded.window_start else ${loginThrottle.windowStart} end`,
      },
    })
    .returning({ key: loginThrottle.key, windowStart: loginThrottle.windowStart, attempts: loginThrottle.attempts });
  let waitMs = 0;
  for (const row of rows) {
    const max = row.key === keys.account ? account : address;
    if (row.attempts > max) waitMs = Math.max(waitMs, row.windowStart.getTime() + windowMs - now);
  }
  await pruneExpired(now);
  return waitMs > 0 ? { allowed: false, waitMs } : { allowed: true };
}

/**
 * A correct password: the account starts afresh, and the address gets this attempt back (one
 * good account must not unlock guessing others, and its successes must not lock the office).
 */
export async function forgiveAttempt(keys: ThrottleKeys): Promise<void> {
  const d = await db();
  await d.delete(loginThrottle).where(eq(loginThrottle.key, keys.account));
  await d
    .update(loginThrottle)
    .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
    .where(and(eq(loginThrottle.key, keys.address), gt(loginThrottle.attempts, 0)));
}

/** An admin reset the password: the account's lock is lifted. */
export async function clearAccountAttempts(email: string): Promise<void> {
  const d = await db();
  await d.delete(loginThrottle).where(eq(loginThrottle.key, throttleKeys(email, "").account));
}

// Rows whose window has run out count for nothing; dropped at most once a minute per process.
let lastPrune = 0;
async function pruneExpired(now: number): Promise<void> {
  if (now - lastPrune < 60_000 && now >= lastPrune) return;
  lastPrune = now;
  const d = await db();
  await d.delete(loginThrottle).where(lt(loginThrottle.windowStart, new Date(now - limits().windowMs)));
}

export function minutesFromMs(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}
