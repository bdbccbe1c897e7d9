import { factorCodeRequest } from "@/lib/schemas/two-factor";
import { clientAddress } from "@/lib/server/http/client-address";
import { route } from "@/lib/server/gate/route";
import { confirmTotp } from "@/lib/server/two-factor";

/** A correct code turns the app on; the answer carries the recovery codes, once. */
export const POST = route("account:own", { body: factorCodeRequest }, async ({ req, body, user }) => confirmTotp(user, body.code, clientAddress(req.headers)));
