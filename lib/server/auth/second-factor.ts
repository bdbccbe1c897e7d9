import "server-only";
import { asTotpCode, totpEnabled, useTotpCode } from "./totp";
import { useRecoveryCode } from "./recovery-codes";

/** Which factor a code matched: the authenticator app or a recovery code. */
export type FactorUsed = "totp" | "recovery_code";

/** Whether sign-in asks this user for a second factor after the password. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  return totpEnabled(userId);
}

/**
 * A code typed at sign-in or at the step-up: six digits are read as the authenticator app's,
 * anything else as a recovery code. Either is used up when accepted.
 */
export async function useSecondFactor(userId: string, input: string, now = Date.now()): Promise<FactorUsed | null> {
  if (asTotpCode(input)) return (await useTotpCode(userId, input, { now })) ? "totp" : null;
  if (!(await totpEnabled(userId))) return null;
  return (await useRecoveryCode(userId, input, now)) ? "recovery_code" : null;
}
