import { route } from "@/lib/server/gate/route";
import { startPasskey } from "@/lib/server/passkeys";

/** Starts adding a passkey: the options for `navigator.credentials.create()` (limited per minute, at most 10 passkeys). */
export const POST = route("account:own", async ({ user }) => startPasskey(user));
