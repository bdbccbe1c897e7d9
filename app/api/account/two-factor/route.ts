import { route } from "@/lib/server/gate/route";
import { getTwoFactorStatus } from "@/lib/server/two-factor";

/** The signed-in user's own second factor: every role may read and change its own. */
export const GET = route("overview:read", async ({ user }) => getTwoFactorStatus(user));
