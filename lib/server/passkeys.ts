import "server-only";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { AppError } from "@/lib/errors";
import { PASSKEYS, type PasskeyAddRequest, type PasskeyView } from "@/lib/schemas/passkeys";
import { withAudit } from "./audit";
import { countPasskeys, listPasskeys, registrationOptions, removePasskey, renamePasskey, storePasskey, verifyRegistration } from "./auth/passkeys";
import type { Actor } from "./gate/guard";
import { requireRecentAuth } from "./gate/reauth";
import { requirePasswordUser, takeEnrolmentStart } from "./two-factor";

/**
 * The signed-in user's own passkeys (the Account screen): add (a challenge, then the
 * authenticator's answer), rename, remove. Removing one is a change to how the account is
 * protected, so it asks for the step-up like regenerating recovery codes does.
 */
const notFound = () => new AppError(404, "not_found", "Passkey not found.");
const tooMany = () => new AppError(409, "limit_reached", `passkeys: at most ${PASSKEYS.perUser} per user — remove one first`, "passkeys");

/** Starts adding a passkey: the options for the browser, the challenge kept for this user. */
export async function startPasskey(user: Actor): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await requirePasswordUser(user);
  if ((await countPasskeys(user.id)) >= PASSKEYS.perUser) throw tooMany();
  takeEnrolmentStart(user.id);
  return registrationOptions(user);
}

/** The authenticator's answer: verified against the challenge, stored under the name given (or one made up). */
export async function addPasskey(user: Actor, body: PasskeyAddRequest): Promise<PasskeyView[]> {
  await requirePasswordUser(user);
  // No guess is made here: the challenge is good once and a new one is limited per minute (startPasskey).
  const detail: Record<string, unknown> = {};
  await withAudit({ actor: user, action: "account.passkey_add", target: user.email, detail }, async () => {
    const key = await verifyRegistration(user.id, body.response);
    if (!key) throw new AppError(400, "invalid_passkey", "response: the passkey could not be verified — start again", "response");
    const name = body.name ?? key.suggestedName;
    const added = await storePasskey(user.id, key, name);
    if (!added) throw tooMany();
    Object.assign(detail, { passkey: added.id, name });
  });
  return listPasskeys(user.id);
}

export async function renameOwnPasskey(user: Actor, id: string, name: string): Promise<PasskeyView[]> {
  await withAudit({ actor: user, action: "account.passkey_rename", target: user.email, detail: { passkey: id, name } }, async () => {
    if (!(await renamePasskey(user.id, id, name))) throw notFound();
  });
  return listPasskeys(user.id);
}

export async function removeOwnPasskey(user: Actor, id: string): Promise<PasskeyView[]> {
  await requireRecentAuth(user);
  const detail: Record<string, unknown> = { passkey: id };
  await withAudit({ actor: user, action: "account.passkey_remove", target: user.email, detail }, async () => {
    const removed = await removePasskey(user.id, id);
    if (!removed) throw notFound();
    detail.name = removed.name;
  });
  return listPasskeys(user.id);
}
