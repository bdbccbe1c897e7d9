import { AppError } from "@/lib/errors";

/**
 * The browser's side of a passkey ceremony, through @simplewebauthn/browser, loaded only when a
 * passkey is used (the Account screen and the sign-in page stay light). The options come from
 * our server as JSON; the answer goes back as JSON. A prompt the user closed, or one the
 * browser refused, becomes an AppError with words a person can act on.
 */
type Options = Record<string, unknown>;

function refused(e: unknown, what: string): AppError {
  const name = e instanceof Error ? e.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return new AppError(400, "passkey_cancelled", `${what}: the passkey prompt was closed or timed out.`);
  if (name === "InvalidStateError") return new AppError(409, "passkey_exists", `${what}: this authenticator already holds a passkey for your account.`);
  return new AppError(400, "passkey_unavailable", `${what}: this browser could not use a passkey (${e instanceof Error ? e.message : "unknown error"}).`);
}

/** One ceremony in the browser: adding a passkey (registration) or using one (authentication). */
async function ceremony(kind: "startRegistration" | "startAuthentication", options: Options, what: string): Promise<Record<string, unknown>> {
  const start = (await import("@simplewebauthn/browser"))[kind];
  try {
    return (await start({ optionsJSON: options as never })) as unknown as Record<string, unknown>;
  } catch (e) {
    throw refused(e, what);
  }
}

export function createPasskeyInBrowser(options: Options): Promise<Record<string, unknown>> {
  return ceremony("startRegistration", options, "No passkey was added");
}

export function assertPasskeyInBrowser(options: Options): Promise<Record<string, unknown>> {
  return ceremony("startAuthentication", options, "Not confirmed");
}
