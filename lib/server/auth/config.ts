import "server-only";
import type { NextAuthConfig } from "next-auth";
import { env } from "../env";

/**
 * Settings shared by the full auth (lib/server/auth/next-auth.ts) and the proxy's session check.
 * No database and no providers here: the proxy only needs to read the session cookie.
 */

/**
 * What the session cookie carries: the user id (`sub`), the server-side session's id (`sid`,
 * a row of `sessions`) and the sign-in time. Nothing else. The cookie is re-issued with a
 * fresh expiry as it is read; that does not lengthen the session, whose lifetime is decided
 * by its row (lib/server/auth/sessions.ts).
 */
export type SessionClaims = { sub?: string; sid?: string; authAt?: number };

export function baseAuthConfig(): NextAuthConfig {
  const e = env();
  return {
    // Passed explicitly: nothing outside env.ts reads process.env.
    secret: e.AUTH_SECRET,
    trustHost: true,
    useSecureCookies: new URL(e.PUBLIC_URL).protocol === "https:",
    // The cookie lives no longer than a session may stay idle; the server decides the rest.
    session: { strategy: "jwt", maxAge: Math.min(e.SESSION_IDLE_S, e.SESSION_MAX_AGE_S), updateAge: 60 * 60 },
    pages: { signIn: "/login", error: "/login" },
    providers: [],
    callbacks: {
      // The role, active flag, project access and the session's own state are read from the
      // database on every request (access.ts), so the session only says who signed in and when.
      session({ session, token }) {
        const claims = token as SessionClaims;
        return { expires: session.expires, user: { id: claims.sub }, sid: claims.sid ?? null, authAt: claims.authAt ?? null } as never;
      },
    },
    logger: {
      // A failed sign-in is an expected outcome, recorded in the audit log; not a server error.
      error(error: Error) {
        const type = (error as { type?: string }).type;
        if (type === "CredentialsSignin" || type === "AccessDenied") return;
        console.error(`[auth] ${type ?? error.name}: ${error.message}`);
      },
      warn(code: string) {
        console.warn(`[auth] warning: ${code}`);
      },
      debug() {},
    },
  };
}
