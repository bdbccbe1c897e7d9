import { recordId } from "@/lib/schemas/params";
import { passkeyRenameRequest } from "@/lib/schemas/passkeys";
import { route } from "@/lib/server/gate/route";
import { removeOwnPasskey, renameOwnPasskey } from "@/lib/server/passkeys";

/** Renames one of the user's own passkeys; answers the passkeys. */
export const PATCH = route("account:own", { params: { id: recordId }, body: passkeyRenameRequest }, async ({ params, body, user }) => renameOwnPasskey(user, params.id, body.name));

/** Removes one of the user's own passkeys (after a recent sign-in or re-confirmation); answers the passkeys. */
export const DELETE = route("account:own", { params: { id: recordId } }, async ({ params, user }) => removeOwnPasskey(user, params.id));
