import { z } from "zod";

/**
 * Passkeys (WebAuthn) as a second factor (issue 29): the bodies the browser sends after
 * `navigator.credentials.create()` / `.get()` (as @simplewebauthn/browser shapes them) and the
 * Account screen's view. Every field is bounded here, before any verification runs: the largest
 * real attestation (a security key's certificate chain) stays well under these.
 */
export const PASSKEYS = {
  /** Passkeys one user may have. */
  perUser: 10,
  nameMaxLength: 64,
  /** Starting enrolment (an authenticator app or a passkey), per user and minute. */
  enrolPerUserPerMinute: 5,
  /** A challenge is good once, for this long. */
  challengeTtlMs: 2 * 60_000,
  /** base64url of a credential id: the spec's 1023 bytes at most. */
  idMaxLength: 1366,
  clientDataMaxLength: 4096,
  attestationMaxLength: 16_384,
  authenticatorDataMaxLength: 4096,
  signatureMaxLength: 1024,
  /** An assertion sent as one JSON string (the sign-in form's field). */
  assertionJsonMaxLength: 12_288,
} as const;

const b64url = (max: number) =>
  z
    .string({ error: "is required" })
    .max(max, { error: `must be at most ${max} characters` })
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: "must be base64url" });

const transports = z.array(z.string().max(32)).max(10);
const extensionResults = z.record(z.string().max(64), z.unknown()).refine((r) => Object.keys(r).length <= 20, { error: "too many extension results" });
const credentialBase = {
  id: b64url(PASSKEYS.idMaxLength),
  rawId: b64url(PASSKEYS.idMaxLength),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: extensionResults.default({}),
};

/** What `startRegistration()` answers. */
export const passkeyRegistrationResponse = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(PASSKEYS.clientDataMaxLength),
    attestationObject: b64url(PASSKEYS.attestationMaxLength),
    transports: transports.optional(),
  }),
});

/** What `startAuthentication()` answers. */
export const passkeyAssertion = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(PASSKEYS.clientDataMaxLength),
    authenticatorData: b64url(PASSKEYS.authenticatorDataMaxLength),
    signature: b64url(PASSKEYS.signatureMaxLength),
    userHandle: b64url(PASSKEYS.idMaxLength).optional(),
  }),
});
export type PasskeyAssertion = z.output<typeof passkeyAssertion>;

/** An assertion carried as a JSON string (a form field): bounded before it is parsed. */
export const passkeyAssertionJson = z
  .string()
  .max(PASSKEYS.assertionJsonMaxLength, { error: `must be at most ${PASSKEYS.assertionJsonMaxLength} characters` })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "is not JSON" });
      return z.NEVER;
    }
  })
  .pipe(passkeyAssertion);

const passkeyName = z.string().trim().min(1, { error: "is required" }).max(PASSKEYS.nameMaxLength, { error: `must be at most ${PASSKEYS.nameMaxLength} characters` });

/** Adding a passkey: the authenticator's answer and, optionally, a name (else one is made up). */
export const passkeyAddRequest = z.object({
  name: passkeyName.optional(),
  response: passkeyRegistrationResponse,
});
export type PasskeyAddRequest = z.output<typeof passkeyAddRequest>;

export const passkeyRenameRequest = z.object({ name: passkeyName });
export type PasskeyRenameRequest = z.output<typeof passkeyRenameRequest>;

export const passkeyView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyView>;
export const passkeyList = z.array(passkeyView);

/**
 * The options the browser hands to `startRegistration()` / `startAuthentication()`: produced by
 * @simplewebauthn/server and passed through whole (the browser library reads them), so only
 * their presence is checked.
 */
export const passkeyOptions = z.looseObject({ challenge: z.string() });
