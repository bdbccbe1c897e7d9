import "server-only";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { db } from "../db";
import { totpFactors } from "../db/schema/two-factor";
import { openSecret, sealSecret } from "../event-stream/secret-box";

/**
 * The authenticator app (TOTP, RFC 6238, through `otpauth`): SHA-1, six digits, 30 s — what
 * every authenticator app reads from a QR code. A code is accepted one step either side of
 * now (clock drift), and never twice: the step it matched is stored, and only a later step is
 * accepted after it, in one conditional UPDATE so two tries at once cannot both pass.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
const WINDOW = 1;
const ISSUER = "Mail dashboard";

function totpFor(secretBase32: string, label = "account"): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secretBase32) });
}

/** A fresh 160-bit secret (RFC 4226's recommended length), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totpFor(secretBase32, email).toString();
}

/** Six digits, spaces allowed ("123 456"); anything else is not a TOTP code. */
export function asTotpCode(input: string): string | null {
  const digits = input.replace(/\s/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** The time step a code matches, or null; pure, for tests and the check below. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/**
 * Starts (or restarts) enrolment: a new secret, sealed, not yet enabled. Refused by the caller
 * when a factor is already on (lib/server/two-factor.ts), so a session cannot swap the secret.
 */
export async function beginTotp(userId: string): Promise<string> {
  const secret = newTotpSecret();
  const sealed = sealSecret(secret);
  const d = await db();
  await d
    .insert(totpFactors)
    .values({ userId, secretSealed: sealed, enabledAt: null, lastStep: null })
    .onConflictDoUpdate({ target: totpFactors.userId, set: { secretSealed: sealed, enabledAt: null, lastStep: null, createdAt: new Date() } });
  return secret;
}

/** The pending secret while enrolling, to show again; null when none or already enabled. */
export async function pendingTotpSecret(userId: string): Promise<string | null> {
  const d = await db();
  const [row] = await d.select().from(totpFactors).where(and(eq(totpFactors.userId, userId), isNull(totpFactors.enabledAt))).limit(1);
  return row ? openSecret(row.secretSealed) : null;
}

export async function totpEnabled(userId: string): Promise<boolean> {
  const d = await db();
  const [row] = await d.select({ userId: totpFactors.userId }).from(totpFactors).where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.enabledAt))).limit(1);
  return Boolean(row);
}

/**
 * Checks a code against the user's secret and uses it up. `enrolling`: the code confirms a
 * pending secret (and enables it); otherwise only an enabled factor counts. True when accepted.
 */
export async function useTotpCode(userId: string, input: string, { enrolling = false, now = Date.now() } = {}): Promise<boolean> {
  const code = asTotpCode(input);
  if (!code) return false;
  const d = await db();
  const state = enrolling ? isNull(totpFactors.enabledAt) : isNotNull(totpFactors.enabledAt);
  const [row] = await d.select().from(totpFactors).where(and(eq(totpFactors.userId, userId), state)).limit(1);
  if (!row) return false;
  const step = matchingStep(openSecret(row.secretSealed), code, now);
  if (step === null) return false;
  const used = await d
    .update(totpFactors)
    .set({ lastStep: step, ...(enrolling ? { enabledAt: new Date(now) } : {}) })
    .where(and(eq(totpFactors.userId, userId), state, or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step))))
    .returning({ userId: totpFactors.userId });
  return used.length > 0;
}

export async function removeTotp(userId: string): Promise<void> {
  const d = await db();
  await d.delete(totpFactors).where(eq(totpFactors.userId, userId));
}
