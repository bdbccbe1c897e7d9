import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { loginRequest } from "@/lib/schemas/users";
import { secondFactorRequest } from "@/lib/schemas/two-factor";
import { clientAddress } from "@/lib/server/http/client-address";
import { baseAuthConfig, type SessionClaims } from "./config";
import { checkCredentials, type SignInCheck } from "./credentials";
import { checkSecondStep, type SecondStepCheck } from "./second-step";
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

/** A wrong code at the second step. */
export class InvalidCode extends CredentialsSignin {
  code = "invalid_code";
}
/** The second step's ticket ran out or no longer names an account that may sign in. */
export class ExpiredTicket extends CredentialsSignin {
  code = "expired";
}
/**
 * The password was right and a second factor is due: no session. The code carries the ticket
 * (sign-in-ticket.ts) to the sign-in action, which keeps it in an httpOnly cookie.
 */
export const SECOND_FACTOR_PREFIX = "second_factor.";
export class SecondFactorNeeded extends CredentialsSignin {
  constructor(ticket: string) {
    super();
    this.code = `${SECOND_FACTOR_PREFIX}${ticket}`;
  }
}

/** A refused check as the error Auth.js hands back to the sign-in action. */
function refusal(result: Exclude<SignInCheck | SecondStepCheck, { ok: true }>, wrong: () => CredentialsSignin): CredentialsSignin {
  if (result.reason === "throttled") return new ThrottledLogin(result.waitMs);
  if (result.reason === "busy") return new BusyLogin(result.waitMs);
  if (result.reason === "second_factor") return new SecondFactorNeeded(result.ticket);
  if (result.reason === "expired") return new ExpiredTicket();
  return wrong();
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
    throw refusal(result, () => new InvalidLogin());
  },
});

/** The second step: the ticket from the password step and a code or a passkey's answer; only a right one makes a session. */
const secondFactor = Credentials({
  id: "second-factor",
  name: "Second factor",
  credentials: { ticket: { type: "text" }, code: { type: "text" }, assertion: { type: "text" } },
  async authorize(raw, request) {
    const parsed = secondFactorRequest.safeParse(raw);
    if (!parsed.success) throw new InvalidCode();
    const { ticket, code, assertion } = parsed.data;
    const result = await checkSecondStep(ticket, assertion ? { assertion } : { code: code ?? "" }, clientAddress(request.headers));
    if (result.ok) return { id: result.user.id, email: result.user.email, name: result.user.name };
    throw refusal(result, () => new InvalidCode());
  },
});

// Lazy configuration: the environment is read at the first request, not at build time.
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const base = baseAuthConfig();
  const oidc = oidcProvider();
  return {
    ...base,
    providers: oidc ? [credentials, secondFactor, oidc] : [credentials, secondFactor],
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
