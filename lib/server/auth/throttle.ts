import "server-only";
import { and, desc, eq, gt, lt } from "drizzle-orm";
import { db } from "../db";
import { loginAttempts } from "../db/schema/core";
import { env } from "../env";

/**
 * Failed sign-ins, counted per account and per client address inside a sliding window
 * (LOGIN_THROTTLE_WINDOW_S). An account locks after LOGIN_THROTTLE_MAX failures; an address
 * after four times as many, since several people may share one (an office, a VPN).
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

/** Milliseconds until a sign-in may be tried again, or 0 when it may be tried now. */
export async function throttledFor(keys: ThrottleKeys, now = Date.now()): Promise<number> {
  const { windowMs, account, address } = limits();
  const since = new Date(now - windowMs);
  const d = await db();
  let wait = 0;
  for (const [key, max] of [
    [keys.account, account],
    [keys.address, address],
  ] as const) {
    // The max-th most recent failure in the window: once it ages out, the count drops below max.
    const [row] = await d
      .select({ at: loginAttempts.at })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.at, since)))
      .orderBy(desc(loginAttempts.at))
      .limit(1)
      .offset(max - 1);
    if (row) wait = Math.max(wait, row.at.getTime() + windowMs - now);
  }
  return wait;
}

export async function recordFailure(keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const { windowMs } = limits();
  const d = await db();
  const at = new Date(now);
  await d.insert(loginAttempts).values([
    { key: keys.account, at },
    { key: keys.address, at },
  ]);
  // Rows outside the window no longer count; pruned here so the table stays small.
  await d.delete(loginAttempts).where(lt(loginAttempts.at, new Date(now - windowMs)));
}

/** A correct password clears the account's count (not the address's: one good account must not unlock guessing others). */
export async function clearAccountFailures(keys: ThrottleKeys): Promise<void> {
  const d = await db();
  await d.delete(loginAttempts).where(eq(loginAttempts.key, keys.account));
}

export function minutesFromMs(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

