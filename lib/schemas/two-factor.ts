import { z } from "zod";
import { ROLES } from "@/lib/permissions";
import { factorCode } from "./common";
import { passkeyAssertionJson, passkeyView } from "./passkeys";
import { role } from "./users";

/**
 * Two-factor sign-in (issue 29): the second step of sign-in, the Account screen's answers and
 * bodies. A code (`factorCode`, ./common.ts) is a TOTP code or a recovery code.
 */

/**
 * The sign-in's second step (the form's action hands it to the second-factor provider): a code,
 * or a passkey's assertion (as the JSON string the form carries) — one of the two.
 */
export const secondFactorRequest = z
  .object({
    ticket: z.string().min(1).max(500),
    code: factorCode.optional(),
    assertion: passkeyAssertionJson.optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.assertion === undefined), { error: "give either code or assertion" });

/** The Account screen's view of the user's factors. */
export const twoFactorStatus = z.object({
  /** False for single-sign-on users: their identity provider decides. */
  available: z.boolean(),
  /** The user's role requires a second factor (an admin's setting): the dashboard waits until there is one. */
  required: z.boolean(),
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The user's passkeys, oldest first. */
  passkeys: z.array(passkeyView),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** Enrolment started: shown while the user scans it, never stored by the browser. */
export const totpEnrolment = z.object({
  secret: z.string(),
  uri: z.string(),
  /** The QR code as an SVG path over a `size`×`size` grid (drawn by the screen, no HTML). */
  qrPath: z.string(),
  qrSize: z.number().int(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

/** A code that proves the user holds the factor (confirming enrolment, turning it off). */
export const factorCodeRequest = z.object({ code: factorCode });
export type FactorCodeRequest = z.infer<typeof factorCodeRequest>;

/** New recovery codes, shown once. */
export const recoveryCodesResponse = z.object({ codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** Which roles must have a second factor (admins' setting; GET/PUT /api/admin/two-factor-policy). */
export const twoFactorPolicy = z.object({
  requiredRoles: z.array(role).max(ROLES.length).transform((roles) => [...new Set(roles)]),
});
export type TwoFactorPolicy = z.output<typeof twoFactorPolicy>;
