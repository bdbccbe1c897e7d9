import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { loginRequest } from "@/lib/schemas/users";
import { clientAddress } from "@/lib/server/http/client-address";
import { baseAuthConfig, type SessionClaims } from "./config";
import { checkCredentials } from "./credentials";
import { createSession, revokeSession } from "./sessions";
import { OIDC_PROVIDER_ID, oidcProvider, oidcUserId } from "./oidc";

/** Wrong email, wrong password or disabled account: one code, one answer. */
export class InvalidLogin extends CredentialsSignin {
  code = "invalid";
}
/** The code carries the wait in milliseconds, since only the code reaches the sign-in action. */
export class ThrottledLogin extends CredentialsSignin {
  constructor(waitMs: number) {
    super();
    this.code = `throttled_${Math.ceil(waitMs)}`;
  }
}
/** Too many password checks under way in the process (password-pool.ts); the code carries the wait too. */
export class BusyLogin extends CredentialsSignin {
  constructor(waitMs: number) {
    super();
    this.code = `busy_${Math.ceil(waitMs)}`;
  }
}

const credentials = Credentials({
  id: "credentials",
  name: "Email and password",
  credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
  async authorize(raw, request) {
    const parsed = loginRequest.pick({ email: true, password: true }).safeParse(raw);
    if (!parsed.success) throw new InvalidLogin();
    const result = await checkCredentials(parsed.data.email, parsed.data.password, clientAddress(request.headers));
    if (result.ok) return { id: result.user.id, email: result.user.email, name: result.user.name };
    if (result.reason === "throttled") throw new ThrottledLogin(result.waitMs);
    throw result.reason === "busy" ? new BusyLogin(result.waitMs) : new InvalidLogin();
  },
});

// Lazy configuration: the environment is read at the first request, not at build time.
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const base = baseAuthConfig();
  const oidc = oidcProvider();
  return {
    ...base,
    providers: oidc ? [credentials, oidc] : [credentials],
    callbacks: {
      ...base.callbacks,
      async signIn({ account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        return (await oidcUserId(profile, { record: false })) !== null;
      },
      async jwt({ token, user, account, profile, trigger }) {
        if (trigger !== "signIn" || !user) return token;
        const oidc = account?.provider === OIDC_PROVIDER_ID;
        const sub = oidc ? await oidcUserId(profile, { record: true }) : user.id;
        if (!sub) return null;
        // Each sign-in is a session row of its own; the cookie only points at it.
        const session = await createSession(sub, oidc ? "oidc" : "password");
        // A fresh token with only our claims: no name, email or picture in the cookie.
        const claims: SessionClaims = { sub, sid: session.id, authAt: session.signedInAt };
        return claims;
      },
    },
    events: {
      // Sign-out through Auth.js (the user menu's action, or its own endpoint) ends the row too.
      async signOut(message) {
        const sid = "token" in message ? (message.token as SessionClaims | null)?.sid : undefined;
        if (sid) await revokeSession(sid, "sign_out");
      },
    },
  };
});
