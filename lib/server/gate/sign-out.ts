"use server";

import { redirect } from "next/navigation";
import { recordAudit } from "@/lib/server/audit";
import { signOut } from "@/lib/server/auth/next-auth";
import { revokeSession, revokeUserSessions } from "@/lib/server/auth/sessions";
import { currentUser } from "@/lib/server/gate/current-user";

/**
 * The sign-out server actions, called from the shell's user menu and sign-out buttons (here in
 * lib/, not beside the login page, so components never import from app/). At lib/server's root
 * beside current-user.ts, not in auth/: it reads the signed-in user through the guard, which
 * builds on auth/.
 */

/** Ends this session on the server (not just the cookie), then clears the cookie. */
export async function logout(): Promise<void> {
  const user = await currentUser();
  if (user) {
    await revokeSession(user.sessionId, "sign_out");
    await recordAudit({ actor: user, action: "auth.sign_out", target: user.email, outcome: "success" });
  }
  await signOut({ redirect: false });
  redirect("/login");
}

/** "Sign out everywhere": every session of this user ends, this one included. */
export async function logoutEverywhere(): Promise<void> {
  const user = await currentUser();
  if (user) {
    const ended = await revokeUserSessions(user.id, "sign_out_everywhere");
    await recordAudit({ actor: user, action: "auth.sign_out_everywhere", target: user.email, outcome: "success", detail: { sessions: ended } });
  }
  await signOut({ redirect: false });
  redirect("/login");
}
