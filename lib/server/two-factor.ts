import "server-only";
import { eq } from "drizzle-orm";
import QRCode from "qrcode";
import { AppError } from "@/lib/errors";
import { PASSKEYS } from "@/lib/schemas/passkeys";
import type { RecoveryCodesResponse, TotpEnrolment, TwoFactorStatus } from "@/lib/schemas/two-factor";
import { withAudit, type AuditActor } from "./audit";
import { revokeUserSessions } from "./auth/sessions";
import { recoveryCodesLeft, removeRecoveryCodes, replaceRecoveryCodes } from "./auth/recovery-codes";
import { listPasskeys, removeAllPasskeys } from "./auth/passkeys";
import { useSecondFactor } from "./auth/second-factor";
import { beginTotp, removeTotp, totpEnabled, totpUri, useTotpCode } from "./auth/totp";
import { db } from "./db";
import { users } from "./db/schema/core";
import type { Actor } from "./gate/guard";
import { requireRecentAuth, takeThrottledAttempt } from "./gate/reauth";
import { busyError } from "./limits/one-at-a-time";
import { perMinute } from "./limits/per-minute";
import { roleRequiresSecondFactor } from "./two-factor-policy";
import { getUser } from "./users";

/**
 * The signed-in user's own second factor (the Account screen). Single-sign-on users have none
 * here: their identity provider decides how they prove who they are.
 */
async function hasPassword(userId: string): Promise<boolean> {
  const d = await db();
  const [row] = await d.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row?.hash);
}

export async function requirePasswordUser(user: Actor): Promise<void> {
  if (!(await hasPassword(user.id))) {
    throw new AppError(400, "no_password", "This account signs in through single sign-on: its identity provider asks for the second factor.");
  }
}

export async function getTwoFactorStatus(user: Actor): Promise<TwoFactorStatus> {
  const [available, totp, left, required, passkeys] = await Promise.all([
    hasPassword(user.id),
    totpEnabled(user.id),
    recoveryCodesLeft(user.id),
    roleRequiresSecondFactor(user.role),
    listPasskeys(user.id),
  ]);
  return { available, required: available && required, totp, recoveryCodesLeft: totp ? left : 0, passkeys };
}

/**
 * Starting enrolment (an authenticator app's new secret, a passkey's challenge) writes a row
 * each time: at most PASSKEYS.enrolPerUserPerMinute starts a minute per user, a 429 with the
 * wait past that, so an open session cannot churn them.
 */
const enrolmentStarts = perMinute("two-factor-enrol", PASSKEYS.enrolPerUserPerMinute);
export function takeEnrolmentStart(userId: string): void {
  const wait = enrolmentStarts.take(userId);
  if (wait !== null) throw busyError("enrolment_limit", `At most ${PASSKEYS.enrolPerUserPerMinute} second-factor set-ups a minute: try again in ${wait} s.`, wait);
}

/** The QR code of a URI as one SVG path over a grid with a 4-module quiet zone. */
export function qrPath(text: string): { qrPath: string; qrSize: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 4;
  let d = "";
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  }
  return { qrPath: d, qrSize: modules.size + 2 * quiet };
}

/**
 * Starts enrolling an authenticator app: a new secret, sealed at rest, pending until a correct
 * code confirms it. Refused while one is on, so an open session cannot swap the user's secret;
 * a new one needs the old turned off first (which asks for a code).
 */
export async function startTotp(user: Actor): Promise<TotpEnrolment> {
  await requirePasswordUser(user);
  if (await totpEnabled(user.id)) throw new AppError(409, "two_factor_on", "An authenticator app is already set up. Turn it off first to set up another.");
  takeEnrolmentStart(user.id);
  const secret = await beginTotp(user.id);
  const uri = totpUri(secret, user.email);
  return { secret, uri, ...qrPath(uri) };
}

/** A correct code from the app turns it on, and the first recovery codes are made (shown once). */
export async function confirmTotp(user: Actor, code: string, address: string): Promise<RecoveryCodesResponse> {
  await requirePasswordUser(user);
  await takeThrottledAttempt(user.email, address);
  return withAudit({ actor: user, action: "account.two_factor_enable", target: user.email, detail: { factor: "totp" } }, async () => {
    if (!(await useTotpCode(user.id, code, { enrolling: true }))) {
      throw new AppError(400, "invalid_code", "code: is not correct — enter the code your app shows now", "code");
    }
    return { codes: await replaceRecoveryCodes(user.id) };
  });
}

/** Turning the app off takes a current code (or a recovery code); the recovery codes go with it. */
export async function disableTotp(user: Actor, code: string, address: string): Promise<TwoFactorStatus> {
  await takeThrottledAttempt(user.email, address);
  await withAudit({ actor: user, action: "account.two_factor_disable", target: user.email, detail: { factor: "totp" } }, async () => {
    if (!(await useSecondFactor(user.id, code))) throw new AppError(400, "invalid_code", "code: is not correct", "code");
    await removeTotp(user.id);
    await removeRecoveryCodes(user.id);
  });
  return getTwoFactorStatus(user);
}

/** New recovery codes replace the old; like creating a key, it asks for a recent sign-in. */
export async function regenerateRecoveryCodes(user: Actor): Promise<RecoveryCodesResponse> {
  if (!(await totpEnabled(user.id))) throw new AppError(409, "two_factor_off", "Set up an authenticator app first: recovery codes stand in for it.");
  await requireRecentAuth(user);
  return withAudit({ actor: user, action: "account.recovery_codes_replace", target: user.email }, async () => ({ codes: await replaceRecoveryCodes(user.id) }));
}

/**
 * An admin resets a user's second factor (a lost phone and lost codes): the app, the
 * recovery codes and the passkeys are removed and every session of the user ends, so whoever holds one of them
 * must sign in again — with the password alone, then set up a new app. Audited.
 */
export async function resetUserFactors(id: string, actor: AuditActor): Promise<{ ended: number }> {
  const user = await getUser(id);
  if (!user) throw new AppError(404, "not_found", "User not found.");
  const detail: Record<string, unknown> = {};
  return withAudit({ actor, action: "user.two_factor_reset", target: user.email, detail }, async () => {
    detail.hadAuthenticatorApp = await totpEnabled(id);
    await removeTotp(id);
    await removeRecoveryCodes(id);
    detail.passkeysRemoved = await removeAllPasskeys(id);
    const ended = await revokeUserSessions(id, "two_factor_reset");
    detail.sessionsEnded = ended;
    return { ended };
  });
}
