import { reconfirmRequest } from "@/lib/schemas/users";
import { clientAddress } from "@/lib/server/http/client-address";
import { route } from "@/lib/server/gate/route";
import { reconfirmPassword } from "@/lib/server/gate/reauth";

/** Every signed-in role may confirm its own password; the actions that ask for it check their own permission. */
export const POST = route("overview:read", { body: reconfirmRequest }, async ({ req, body, user }) => reconfirmPassword(user, body.password, clientAddress(req.headers)));
