import "server-only";
import type { PasskeyAssertion } from "@/lib/schemas/passkeys";
import { hasPasskey, usePasskey } from "./passkeys";
import { asTotpCode, totpEnabled, useTotpCode } from "./totp";
import { useRecoveryCode } from "./recovery-codes";

/** Which factor a proof matched: the authenticator app, a recovery code or a passkey. */
export type FactorUsed = "totp" | "recovery_code" | "passkey";

/** A proof offered at sign-in or at the step-up: a typed code, or a passkey's assertion. */
export type FactorProof = { code: string } | { assertion: PasskeyAssertion };

/** Whether sign-in asks this user for a second factor after the password: an app or a passkey. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  return (await totpEnabled(userId)) || (await hasPasskey(userId));
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

/** What a proof matched, with the passkey's name when it was one (the audit names it). */
export type FactorMatch = { factor: FactorUsed; passkey?: string };

/** A code, or a passkey's answer to the user's outstanding challenge for `purpose`. */
export async function useFactorProof(userId: string, proof: FactorProof, purpose: "sign_in" | "step_up", now = Date.now()): Promise<FactorMatch | null> {
  if ("code" in proof) {
    const factor = await useSecondFactor(userId, proof.code, now);
    return factor ? { factor } : null;
  }
  const key = await usePasskey(userId, purpose, proof.assertion, now);
  return key ? { factor: "passkey", passkey: key.name } : null;
}
