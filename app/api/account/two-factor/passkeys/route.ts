import { passkeyAddRequest } from "@/lib/schemas/passkeys";
import { route } from "@/lib/server/gate/route";
import { addPasskey } from "@/lib/server/passkeys";

/** The authenticator's answer to the challenge from …/passkeys/options: verified, then stored; answers the passkeys. */
export const POST = route("account:own", { body: passkeyAddRequest }, async ({ body, user }) => addPasskey(user, body));
