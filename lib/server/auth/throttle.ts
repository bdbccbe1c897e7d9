import "server-only";
import { createHash } from "node:crypto";
import { and, eq, gt, inArray, lt, not, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/server/db";
import { loginThrottle } from "@/lib/server/db/schema/core";
import { env } from "@/lib/server/env";
import { networkOf } from "@/lib/net/ip-ranges";

/**
 * Sign-in throttling that slows guessing without letting a stranger lock anyone out.
 *
 * A client is its network (lib/net/ip-ranges.ts networkOf): an IPv4 address, or an IPv6
 * address's /64 — one subscriber holds a whole /64, so a count per IPv6 address would give
 * every guess a fresh budget. Failures are counted on three keys, each forgotten
 * LOGIN_THROTTLE_WINDOW_S after its last counted failure:
 * - the pair (account, network): LOGIN_THROTTLE_MAX free failures, then each next attempt
 *   waits 1 s, 2 s, 4 s … after the last failure, up to LOGIN_THROTTLE_MAX_DELAY_S. This is
 *   the guesser's own bucket: the owner at another network never shares it.
 * - the network, across accounts: 4× as many free failures (an office or a VPN is many
 *   people), then the same growing delay. It stops one network spraying many accounts.
 * - the account, across networks: 4× as many free failures, then a growing delay capped at
 *   ACCOUNT_MAX_DELAY_S, which bounds a guesser spread over many networks. It never holds the
 *   owner: networks the account signed in from in the last KNOWN_DAYS are exempt (as Okta
 *   exempts known devices), and every other network gets one pass — one attempt that goes
 *   through the account's delay (the pair's and the network's still apply) — per KNOWN_DAYS
 *   (while its `passed:` row is kept: see the bound below).
 *   Without the pass a stranger making one failure each time the delay ran out would keep
 *   the owner out at every new network for as long as they kept at it. With it the owner's
 *   first try from any network reaches the password check, and a spread guesser gains one
 *   guess per network per 30 days: a botnet of 10,000 addresses gains 10,000 a month against
 *   the ~43,000 the account's delay lets through anyway.
 * There is no hard lock: every wait runs out while the guesser keeps trying.
 *
 * The decision and the count are made in one transaction under advisory locks on the keys
 * (sorted, so two attempts never wait on each other in a circle), before the password is
 * looked at: parallel attempts queue and each sees the count the others left. Each key is one
 * row whose counter is upserted, and rows are written only for a counted attempt (a correct
 * password then gives it back) or, for an existing account, a refused one.
 *
 * An email that matches no account gets no `account:` row (nor `refused:` or `passed:`): a
 * stranger rotating made-up emails must not grow the table by one row per try. Its pair and
 * its network are counted exactly as for an account, so one network sees the same answers
 * whether the account exists; only the account-wide delay, which a guesser sees after
 * 4 × LOGIN_THROTTLE_MAX failures spread over several networks, tells them apart.
 *
 * The table is bounded: LOGIN_THROTTLE_MAX_KEYS rows (trimRows), the newest kept, the
 * networks accounts signed in from kept longest. A guesser on fresh networks can push out
 * old counts, but each push costs them a counted try per two rows.
 *
 * Rows (`login_throttle`): `key`, `window_start` (the last counted failure; for `refused:`
 * the first refusal of the window; for `known:` the last success; for `passed:` the pass) and
 * `attempts`.
 */
export const ADDRESS_FACTOR = 4;
export const ACCOUNT_FACTOR = 4;
/** The account-wide delay stays short: it also slows the owner's second try at a new network. */
export const ACCOUNT_MAX_DELAY_S = 60;
export const KNOWN_DAYS = 30;
const KNOWN_MS = KNOWN_DAYS * 86_400_000;

export type ThrottleKeys = { account: string; address: string; pair: string; known: string; passed: string; refused: string };

const pairOf = (email: string, network: string) => JSON.stringify([email, network]);
const normal = (email: string) => email.trim().toLowerCase();

export function throttleKeys(emailInput: string, address: string): ThrottleKeys {
  const email = normal(emailInput);
  const pair = pairOf(email, networkOf(address));
  return {
    account: `account:${email}`,
    address: `address:${networkOf(address)}`,
    pair: `pair:${pair}`,
    known: `known:${pair}`,
    passed: `passed:${pair}`,
    refused: `refused:${pair}`,
  };
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
/** `refusal`: the pair's count of refused tries, kept only for an account that exists. */
export type Attempt = { allowed: true } | { allowed: false; waitMs: number; refusal: Refusal | null };

type Row = { key: string; windowStart: Date; attempts: number };
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Attempts on the same keys queue here until the transaction ends. */
async function lockKeys(tx: Tx, keys: string[]): Promise<void> {
  for (const key of [...keys].sort()) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * Decides whether this attempt may go on to the password check and counts it: as a failure
 * on the keys when allowed (given back by forgiveAttempt if the password is right), as a
 * refusal on the pair's `refused:` row when not. `exists`: the email is an account's; when it
 * is not, the account's keys are neither read nor written.
 */
export async function takeAttempt(keys: ThrottleKeys, now = Date.now(), { exists = true }: { exists?: boolean } = {}): Promise<Attempt> {
  const l = limits();
  const at = new Date(now);
  const d = await db();
  const counted = exists ? [keys.account, keys.address, keys.pair] : [keys.address, keys.pair];
  let wrote = 0;
  const result = await d.transaction(async (tx) => {
    await lockKeys(tx, counted);
    const rows: Row[] = await tx.select().from(loginThrottle).where(inArray(loginThrottle.key, exists ? [...counted, keys.known, keys.passed] : counted));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const live = (r: Row | undefined) => (r && r.windowStart.getTime() > now - l.windowMs ? r.attempts : 0);
    const within = (key: string, ms: number) => {
      const r = byKey.get(key);
      return r !== undefined && r.windowStart.getTime() > now - ms;
    };
    const waitOn = (key: string, rule: { free: number; capMs: number }) => {
      const r = byKey.get(key);
      const delay = delayMs(live(r), rule.free, rule.capMs);
      // No delay is no wait, even when another instance's clock wrote a later time.
      return r && delay > 0 ? Math.max(0, r.windowStart.getTime() + delay - now) : 0;
    };
    const accountWait = !exists || within(keys.known, KNOWN_MS) ? 0 : waitOn(keys.account, l.account);
    const usePass = accountWait > 0 && !within(keys.passed, KNOWN_MS);
    const waitMs = Math.max(waitOn(keys.pair, l.pair), waitOn(keys.address, l.address), usePass ? 0 : accountWait);

    if (waitMs === 0) {
      const values = counted.map((key) => ({ key, windowStart: at, attempts: live(byKey.get(key)) + 1 }));
      if (usePass) values.push({ key: keys.passed, windowStart: at, attempts: 1 });
      await tx
        .insert(loginThrottle)
        .values(values)
        .onConflictDoUpdate({ target: loginThrottle.key, set: { attempts: sql`excluded.attempts`, windowStart: sql`excluded.window_start` } });
      wrote = values.length;
      return { allowed: true } as const;
    }
    if (!exists) return { allowed: false, waitMs, refusal: null } as const;
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
    wrote = 1;
    const refusal: Refusal = { auditId: refusalAuditId(keys.refused, refused.windowStart), count: refused.attempts, since: refused.windowStart };
    return { allowed: false, waitMs, refusal } as const;
  });
  await trimRows(now, wrote);
  return result;
}

/** The id of the audit entry that counts one pair's refusals in one window: the same for every refusal of it. */
function refusalAuditId(refusedKey: string, since: Date): string {
  return `throttle-${createHash("sha256").update(`${refusedKey}\n${since.toISOString()}`).digest("hex").slice(0, 32)}`;
}

/**
 * A correct password: the pair starts afresh and the network becomes known to the account;
 * the network and the account get this attempt back. The account's count of others' failures
 * stays: the owner signing in must not hand a distributed guesser a fresh allowance.
 */
export async function forgiveAttempt(keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const d = await db();
  const at = new Date(now);
  await d.transaction(async (tx) => {
    await lockKeys(tx, [keys.account, keys.address, keys.pair]);
    await tx.delete(loginThrottle).where(inArray(loginThrottle.key, [keys.pair, keys.refused, keys.passed]));
    await tx
      .update(loginThrottle)
      .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
      .where(and(inArray(loginThrottle.key, [keys.address, keys.account]), gt(loginThrottle.attempts, 0)));
    await tx.insert(loginThrottle).values({ key: keys.known, windowStart: at, attempts: 0 }).onConflictDoUpdate({ target: loginThrottle.key, set: { windowStart: at } });
  });
}

/** An admin reset the password: the account's counts, across all networks, are lifted. */
export async function clearAccountAttempts(emailInput: string): Promise<void> {
  const email = normal(emailInput);
  const d = await db();
  await d.delete(loginThrottle).where(eq(loginThrottle.key, `account:${email}`));
  for (const kind of ["pair", "refused", "passed"]) {
    // The JSON of the pair starts with the email's JSON and a comma: no other account's key does.
    const prefix = `${kind}:[${JSON.stringify(email)},`;
    await d.delete(loginThrottle).where(sql`left(${loginThrottle.key}, ${prefix.length}) = ${prefix}`);
  }
}

/**
 * Keeps the table within LOGIN_THROTTLE_MAX_KEYS rows. Runs once this process has written a
 * tenth as many rows since the last run (so the table holds at most LOGIN_THROTTLE_MAX_KEYS
 * plus a tenth per instance), or a minute has passed: rows whose window has run out are
 * dropped (they count for nothing), then all but the newest LOGIN_THROTTLE_MAX_KEYS, the
 * `known:` rows (made only by correct passwords) kept first so a flood evicts a guesser's
 * counts before the owners' known networks.
 */
let writtenSinceTrim = 0;
let lastTrim = 0;
async function trimRows(now: number, wrote: number): Promise<void> {
  writtenSinceTrim += wrote;
  const maxKeys = env().LOGIN_THROTTLE_MAX_KEYS;
  const due = writtenSinceTrim >= Math.max(1, Math.floor(maxKeys / 10)) || now - lastTrim >= 60_000 || now < lastTrim;
  if (!due) return;
  writtenSinceTrim = 0;
  lastTrim = now;
  const d = await db();
  const longLived = sql`(left(${loginThrottle.key}, 6) = 'known:' or left(${loginThrottle.key}, 7) = 'passed:')`;
  await d.delete(loginThrottle).where(and(not(longLived), lt(loginThrottle.windowStart, new Date(now - limits().windowMs))));
  await d.delete(loginThrottle).where(and(longLived, lt(loginThrottle.windowStart, new Date(now - KNOWN_MS))));
  const keep = d
    .select({ key: loginThrottle.key })
    .from(loginThrottle)
    .orderBy(sql`left(${loginThrottle.key}, 6) = 'known:' desc`, sql`${loginThrottle.windowStart} desc`)
    .offset(maxKeys);
  await d.delete(loginThrottle).where(inArray(loginThrottle.key, keep));
}

/** "12 seconds", "4 minutes": the wait as the sign-in form and the re-confirmation say it. */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
