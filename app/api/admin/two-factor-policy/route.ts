import { twoFactorPolicy } from "@/lib/schemas/two-factor";
import { route } from "@/lib/server/gate/route";
import { getTwoFactorPolicy, setTwoFactorPolicy } from "@/lib/server/two-factor-policy";

/** Which roles must sign in with a second factor. */
export const GET = route("users:manage", async () => getTwoFactorPolicy());

/** Sets them (audited); users of a listed role without a factor are led to set one up at once. */
export const PUT = route("users:manage", { body: twoFactorPolicy }, async ({ body, user }) => setTwoFactorPolicy(body, user));
