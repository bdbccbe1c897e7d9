import { route } from "@/lib/server/gate/route";
import { stepUpPasskeyOptions } from "@/lib/server/gate/reauth";

/** The step-up's challenge for a passkey (then POST /api/auth/reconfirm with `assertion`); 409 for a user without one. */
export const POST = route("overview:read", async ({ user }) => stepUpPasskeyOptions(user));
