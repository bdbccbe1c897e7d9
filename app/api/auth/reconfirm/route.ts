import { z } from "zod";
import { clientAddress } from "@/lib/server/http/client-address";
import { parseBody, route } from "@/lib/server/route";
import { reconfirmPassword } from "@/lib/server/reauth";

const body = z.object({ password: z.string({ error: "is required" }).min(1, { error: "is required" }).max(1000) });

/** Every signed-in role may confirm its own password; the actions that ask for it check their own permission. */
export const POST = route("overview:read", async ({ req, user }) =>
  reconfirmPassword(user, (await parseBody(req, body)).password, clientAddress(req.headers)),
);
