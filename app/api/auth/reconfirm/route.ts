import { reconfirmRequest } from "@/lib/schemas/users";
import { clientAddress } from "@/lib/server/http/client-address";
import { route } from "@/lib/server/gate/route";
import { reconfirm } from "@/lib/server/gate/reauth";

/** Every signed-in role may confirm itself again (password or second-factor code); the actions that ask for it check their own permission. */
export const POST = route("overview:read", { body: reconfirmRequest }, async ({ req, body, user }) => reconfirm(user, body, clientAddress(req.headers)));
