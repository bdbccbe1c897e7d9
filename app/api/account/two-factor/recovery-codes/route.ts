import { route } from "@/lib/server/gate/route";
import { regenerateRecoveryCodes } from "@/lib/server/two-factor";

/** New recovery codes replace the old (after a recent sign-in or re-confirmation); shown once. */
export const POST = route("account:own", async ({ user }) => regenerateRecoveryCodes(user));
