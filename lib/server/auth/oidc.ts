import "server-only";
import { and, eq } from "drizzle-orm";
import type { Provider } from "next-auth/providers";
import { recordAudit } from "../audit";
import { db } from "../db";
import { users } from "../db/schema/core";
import { env } from "../env";

export const OIDC_PROVIDER_ID = "oidc";

/** The optional single sign-on provider, present when all OIDC_* variables are set. */
export function oidcProvider(): Provider | null {
  const oidc = env().oidc;
  if (!oidc) return null;
  return {
    id: OIDC_PROVIDER_ID,
    name: "Single sign-on",
    type: "oidc",
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    checks: ["pkce", "state", "nonce"],
  };
}

/**
 * Single sign-on admits only people an admin already created here, by an email the identity
 * provider says it verified (`email_verified: true`; absent or any other value is a refusal,
 * since an unverified address can be anyone's), and only while their account is active: the
 * role and project access live in the dashboard, not in the identity provider.
 */
export async function oidcUserId(
  profile: { email?: unknown; email_verified?: unknown } | undefined,
  opts: { record: boolean },
): Promise<string | null> {
  const email = typeof profile?.email === "string" ? profile.email.trim().toLowerCase() : null;
  if (!email || profile?.email_verified !== true) return null;
  const d = await db();
  const [user] = await d
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), eq(users.active, true)))
    .limit(1);
  if (!user || !opts.record) return user?.id ?? null;
  await d.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await recordAudit({
    actor: user,
    action: "auth.sign_in",
    target: user.email,
    outcome: "success",
    detail: { method: "oidc" },
  });
  return user.id;
}
