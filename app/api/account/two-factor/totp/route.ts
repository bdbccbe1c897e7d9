import { factorCodeRequest } from "@/lib/schemas/two-factor";
import { clientAddress } from "@/lib/server/http/client-address";
import { route } from "@/lib/server/gate/route";
import { disableTotp, startTotp } from "@/lib/server/two-factor";

/** Starts setting up an authenticator app: the secret travels once, in this no-store answer. */
export const POST = route("account:own", async ({ user }) => startTotp(user));

/** Turns the authenticator app off; takes a current code. */
export const DELETE = route("account:own", { body: factorCodeRequest }, async ({ req, body, user }) => disableTotp(user, body.code, clientAddress(req.headers)));
