import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, or, type SQL } from "drizzle-orm";
import { db } from "../db";
import { sessions } from "../db/schema/sessions";
import { env } from "../env";

/**
 * Server-side sessions. The cookie is only a pointer (`sid`): sign-out, "sign out
 * everywhere", an admin ending them, a password reset, disabling and a role change all end
 * sessions here, and the guard (access.ts) refuses any session that is revoked, older than
 * SESSION_MAX_AGE_S since sign-in, or unused for SESSION_IDLE_S.
 */
export type RevokeReason = "sign_out" | "sign_out_everywhere" | "ended_by_admin" | "password_reset" | "disabled" | "role_change" | "two_factor_reset";

/** Last-seen is written at most this often per session: the guard runs on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

export function sessionLimits() {
  const e = env();
  return { maxAgeMs: e.SESSION_MAX_AGE_S * 1000, idleMs: e.SESSION_IDLE_S * 1000 };
}

export type SessionTimes = { signedInAt: Date; lastSeenAt: Date; revokedAt: Date | null };

/** The rule, pure: not revoked, within the absolute lifetime, and used recently enough. */
export function isSessionLive(s: SessionTimes, now: number, limits = sessionLimits()): boolean {
  if (s.revokedAt) return false;
  if (now - s.signedInAt.getTime() > limits.maxAgeMs) return false;
  return now - s.lastSeenAt.getTime() <= limits.idleMs;
}

export async function createSession(userId: string, method: "password" | "oidc", now = Date.now()): Promise<{ id: string; signedInAt: number }> {
  const d = await db();
  const id = randomBytes(24).toString("base64url");
  const at = new Date(now);
  await d.insert(sessions).values({ id, userId, signedInAt: at, lastSeenAt: at, method });
  // Rows of this user that can no longer be used are dropped here, so the table stays small.
  const { maxAgeMs } = sessionLimits();
  await d
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), or(lt(sessions.signedInAt, new Date(now - maxAgeMs)), lt(sessions.revokedAt, new Date(now - maxAgeMs)))));
  return { id, signedInAt: now };
}

/** Ends the sessions `which` picks that are not ended yet; answers them as they were. */
async function revokeWhere(which: SQL, reason: RevokeReason, now: number) {
  return (await db())
    .update(sessions)
    .set({ revokedAt: new Date(now), revokedReason: reason })
    .where(and(which, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id, signedInAt: sessions.signedInAt, lastSeenAt: sessions.lastSeenAt });
}

/** Ends one session (sign-out). True when it was live until now. */
export async function revokeSession(id: string, reason: RevokeReason, now = Date.now()): Promise<boolean> {
  return (await revokeWhere(eq(sessions.id, id), reason, now)).length > 0;
}

/** Ends every session of a user; answers how many were not yet ended. */
export async function revokeUserSessions(userId: string, reason: RevokeReason, now = Date.now()): Promise<number> {
  const rows = await revokeWhere(eq(sessions.userId, userId), reason, now);
  return rows.filter((r) => isSessionLive({ ...r, revokedAt: null }, now)).length;
}

/** SQL for "this session row is live", for counts in lists (users.ts). */
export function liveSessionCondition(now = Date.now()) {
  const { maxAgeMs, idleMs } = sessionLimits();
  return and(isNull(sessions.revokedAt), gt(sessions.signedInAt, new Date(now - maxAgeMs)), gt(sessions.lastSeenAt, new Date(now - idleMs)));
}

// Sessions whose last-seen write is under way or just done, so a burst of requests writes once.
const recentlyTouched = new Map<string, number>();

/**
 * Moves last-seen forward when it is older than LAST_SEEN_EVERY_MS: at most one write per
 * session a minute, however many requests arrive. The condition in the UPDATE keeps two
 * processes from both writing.
 */
export async function touchSession(id: string, lastSeenAt: Date, now = Date.now()): Promise<boolean> {
  if (now - lastSeenAt.getTime() < LAST_SEEN_EVERY_MS) return false;
  const touched = recentlyTouched.get(id);
  if (touched !== undefined && now - touched < LAST_SEEN_EVERY_MS) return false;
  if (recentlyTouched.size > 10_000) recentlyTouched.clear();
  recentlyTouched.set(id, now);
  const d = await db();
  const rows = await d
    .update(sessions)
    .set({ lastSeenAt: new Date(now) })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), lt(sessions.lastSeenAt, new Date(now - LAST_SEEN_EVERY_MS))))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Tests: forget which sessions were touched, so a simulated clock can move on. */
export function forgetTouchedSessions(): void {
  recentlyTouched.clear();
}
