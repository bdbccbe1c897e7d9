import { route } from "@/lib/server/gate/route";
import { getTwoFactorStatus } from "@/lib/server/two-factor";

/** The signed-in user's own second factor: every role may read and change its own (even before a required one is set up). */
export const GET = route("account:own", async ({ user }) => getTwoFactorStatus(user));
