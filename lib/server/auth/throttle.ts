import "server-only";
import { createHash } from "node:crypto";
import { and, eq, gt, inArray, lt, not, sql } from "drizzle-orm";
import { db } from "../db";
import { loginThrottle } from "../db/schema/core";
import { env } from "../env";

/**
 * Sign-in throttling that slows guessing without letting a stranger lock anyone out.
 *
 * Failures are counted on three keys, each forgotten LOGIN_THROTTLE_WINDOW_S after its last
 * counted failure:
 * - the pair (account, client address): LOGIN_THROTTLE_MAX free failures, then each next
 *   attempt waits 1 s, 2 s, 4 s … after the last failure, up to LOGIN_THROTTLE_MAX_DELAY_S.
 *   This is the guesser's own bucket: the owner at another address never shares it.
 * - the client address, across accounts: 4× as many free failures (an office or a VPN is
 *   many people), then the same growing delay. It stops one address spraying many accounts.
 * - the account, across addresses: 4× as many free failures, then a growing delay capped at
 *   ACCOUNT_MAX_DELAY_S, which bounds a guesser spread over many addresses. Addresses the
 *   account signed in from successfully in the last KNOWN_DAYS are exempt (as Okta exempts
 *   known devices), so the owner is never held by it; an unknown address is slowed, never
 *   refused for long.
 * There is no hard lock: every wait runs out while the guesser keeps trying.
 *
 * The decision and the count are made in one transaction with the keys' rows locked, before
 * the password is looked at: parallel attempts queue on the rows and each sees the count the
 * others left. A correct password then gives its attempt back. A refused attempt is not
 * counted as a failure (a flood cannot push the wait further out); it is counted on the
 * pair's `refused:` row instead, which names one audit entry per pair and window
 * (refusalAuditId), so a flood is one entry with a count.
 *
 * Rows (`login_throttle`): `key`, `window_start` (the last counted failure; for `refused:`
 * the first refusal of the window; for `known:` the last success) and `attempts`.
 */
export const ADDRESS_FACTOR = 4;
export const ACCOUNT_FACTOR = 4;
/** The account-wide delay stays short: it also slows the owner at a new address. */
export const ACCOUNT_MAX_DELAY_S = 60;
export const KNOWN_DAYS = 30;

export type ThrottleKeys = { account: string; address: string; pair: string; known: string; refused: string };

const pairOf = (email: string, address: string) => JSON.stringify([email, address]);
const normal = (email: string) => email.trim().toLowerCase();

export function throttleKeys(emailInput: string, address: string): ThrottleKeys {
  const email = normal(emailInput);
  const pair = pairOf(email, address);
  return { account: `account:${email}`, address: `address:${address}`, pair: `pair:${pair}`, known: `known:${pair}`, refused: `refused:${pair}` };
}

function limits() {
  const e = env();
  const max = e.LOGIN_THROTTLE_MAX;
  return {
    windowMs: e.LOGIN_THROTTLE_WINDOW_S * 1000,
    pair: { free: max, capMs: e.LOGIN_THROTTLE_MAX_DELAY_S * 1000 },
    address: { free: max * ADDRESS_FACTOR, capMs: e.LOGIN_THROTTLE_MAX_DELAY_S * 1000 },
    account: { free: max * ACCOUNT_FACTOR, capMs: Math.min(ACCOUNT_MAX_DELAY_S, e.LOGIN_THROTTLE_MAX_DELAY_S) * 1000 },
  };
}

/** The wait after `failures` counted failures: none while free, then 1 s, 2 s, 4 s … up to `capMs`. */
export function delayMs(failures: number, free: number, capMs: number): number {
  if (failures < free) return 0;
  return Math.min(capMs, 1000 * 2 ** Math.min(failures - free, 30));
}

export type Refusal = { auditId: string; count: number; since: Date };
export type Attempt = { allowed: true } | { allowed: false; waitMs: number; refusal: Refusal };

type Row = { key: string; windowStart: Date; attempts: number };

/**
 * Decides whether this attempt may go on to the password check and counts it: as a failure
 * on the three keys when allowed (given back by forgiveAttempt if the password is right), as
 * a refusal on the pair's `refused:` row when not.
 */
export async function takeAttempt(keys: ThrottleKeys, now = Date.now()): Promise<Attempt> {
  const l = limits();
  const at = new Date(now);
  const d = await db();
  const result = await d.transaction(async (tx) => {
    const counted = [keys.account, keys.address, keys.pair].sort();
    // Rows made first (sorted, like the lock below, so two attempts never wait on each other in a circle), then locked.
    await tx.insert(loginThrottle).values(counted.map((key) => ({ key, windowStart: at, attempts: 0 }))).onConflictDoNothing();
    const rows: Row[] = await tx.select().from(loginThrottle).where(inArray(loginThrottle.key, counted)).orderBy(loginThrottle.key).for("update");
    const [known] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, keys.known)).limit(1);
    const live = (r: Row | undefined) => (r && r.windowStart.getTime() > now - l.windowMs ? r.attempts : 0);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const waitOn = (key: string, rule: { free: number; capMs: number }) => {
      const r = byKey.get(key);
      const delay = delayMs(live(r), rule.free, rule.capMs);
      // No delay is no wait, even when another instance's clock wrote a later time.
      return r && delay > 0 ? Math.max(0, r.windowStart.getTime() + delay - now) : 0;
    };
    const isKnown = known !== undefined && known.windowStart.getTime() > now - KNOWN_DAYS * 86_400_000;
    const waitMs = Math.max(waitOn(keys.pair, l.pair), waitOn(keys.address, l.address), isKnown ? 0 : waitOn(keys.account, l.account));

    if (waitMs === 0) {
      for (const key of counted) {
        await tx.update(loginThrottle).set({ attempts: live(byKey.get(key)) + 1, windowStart: at }).where(eq(loginThrottle.key, key));
      }
      return { allowed: true } as const;
    }
    // One refusal row per pair and window: the first refusal of a window starts it.
    const restart = sql`${loginThrottle.windowStart} <= ${new Date(now - l.windowMs).toISOString()}::timestamptz`;
    const [refused] = await tx
      .insert(loginThrottle)
      .values({ key: keys.refused, windowStart: at, attempts: 1 })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          attempts: sql`case when ${restart} then 1 else ${loginThrottle.attempts} + 1 end`,
          windowStart: sql`case when ${restart} then excluded.window_start else ${loginThrottle.windowStart} end`,
        },
      })
      .returning();
    const refusal: Refusal = { auditId: refusalAuditId(keys.refused, refused.windowStart), count: refused.attempts, since: refused.windowStart };
    return { allowed: false, waitMs, refusal } as const;
  });
  await pruneExpired(now);
  return result;
}

/** The id of the audit entry that counts one pair's refusals in one window: the same for every refusal of it. */
function refusalAuditId(refusedKey: string, since: Date): string {
  return `throttle-${createHash("sha256").update(`${refusedKey}\n${since.toISOString()}`).digest("hex").slice(0, 32)}`;
}

/**
 * A correct password: the pair starts afresh and the address becomes known to the account;
 * the address and the account get this attempt back. The account's count of others' failures
 * stays: the owner signing in must not hand a distributed guesser a fresh allowance.
 */
export async function forgiveAttempt(keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const d = await db();
  await d.delete(loginThrottle).where(inArray(loginThrottle.key, [keys.pair, keys.refused]));
  await d
    .update(loginThrottle)
    .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
    .where(and(inArray(loginThrottle.key, [keys.address, keys.account]), gt(loginThrottle.attempts, 0)));
  const at = new Date(now);
  await d.insert(loginThrottle).values({ key: keys.known, windowStart: at, attempts: 0 }).onConflictDoUpdate({ target: loginThrottle.key, set: { windowStart: at } });
}

/** An admin reset the password: the account's counts, across all addresses, are lifted. */
export async function clearAccountAttempts(emailInput: string): Promise<void> {
  const email = normal(emailInput);
  const d = await db();
  await d.delete(loginThrottle).where(eq(loginThrottle.key, `account:${email}`));
  for (const kind of ["pair", "refused"]) {
    // The JSON of the pair starts with the email's JSON and a comma: no other account's key does.
    const prefix = `${kind}:[${JSON.stringify(email)},`;
    await d.delete(loginThrottle).where(sql`left(${loginThrottle.key}, ${prefix.length}) = ${prefix}`);
  }
}

// Rows whose window has run out count for nothing; dropped at most once a minute per process.
let lastPrune = 0;
async function pruneExpired(now: number): Promise<void> {
  if (now - lastPrune < 60_000 && now >= lastPrune) return;
  lastPrune = now;
  const d = await db();
  const known = sql`left(${loginThrottle.key}, 6) = 'known:'`;
  await d.delete(loginThrottle).where(and(not(known), lt(loginThrottle.windowStart, new Date(now - limits().windowMs))));
  await d.delete(loginThrottle).where(and(known, lt(loginThrottle.windowStart, new Date(now - KNOWN_DAYS * 86_400_000))));
}

/** "12 seconds", "4 minutes": the wait as the sign-in form and the re-confirmation say it. */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
