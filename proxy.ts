import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { baseAuthConfig } from "@/lib/server/auth/config";
import { env, isDevelopment } from "@/lib/server/env";
import { malformedPathResponse } from "@/lib/server/http/malformed-path";
import { createNonce, pageContentSecurityPolicy, strictTransportSecurity } from "@/lib/server/http/security-headers";

/**
 * Runs before every page: sets the page's Content-Security-Policy with a fresh nonce (passed
 * to the app in `x-nonce`), HSTS when PUBLIC_URL is https, and sends signed-out browsers to
 * /login. That redirect is a convenience only: every page, route and server function checks
 * access itself (guard.ts), and the session's server-side state is read there, not here.
 * The session cookie is read with the database-free half of the auth config.
 */
const { auth } = NextAuth(() => baseAuthConfig());

/** Reachable without a session; everything else in the matcher needs one. */
function isPublicPage(pathname: string): boolean {
  return pathname === "/login" || pathname.startsWith("/login/");
}

function withSecurityHeaders(res: NextResponse, csp: string, hsts: string | null): NextResponse {
  res.headers.set("Content-Security-Policy", csp);
  if (hsts) res.headers.set("Strict-Transport-Security", hsts);
  return res;
}

const withSession = auth((req) => {
  const nonce = createNonce();
  const https = env().publicOrigin.startsWith("https:");
  const csp = pageContentSecurityPolicy(nonce, { dev: isDevelopment, https });
  const hsts = strictTransportSecurity(https);
  const { pathname, search } = req.nextUrl;

  if (!req.auth && !isPublicPage(pathname)) {
    const login = new URL("/login", req.nextUrl);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    return withSecurityHeaders(NextResponse.redirect(login), csp, hsts);
  }

  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  // Next reads the nonce for its own scripts from the request's CSP header.
  requestHeaders.set("Content-Security-Policy", csp);
  // For guardPage(): where to come back to after signing in.
  requestHeaders.set("x-pathname", `${pathname}${search}`);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp, hsts);
});

/**
 * With a lazy (per-request) config, Auth.js's `auth(handler)` resolves to the handler
 * asynchronously, so Next gets a plain function that awaits it.
 */
export async function proxy(req: NextRequest, ev: NextFetchEvent): Promise<Response> {
  // Issue 12, finding 8: a path that does not decode is a 400 here; Next itself would answer 500.
  const malformed = malformedPathResponse(req);
  if (malformed) return malformed;
  if (req.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const handler = (await withSession) as unknown as (req: NextRequest, ev: NextFetchEvent) => Promise<Response>;
  return handler(req, ev);
}

export const config = {
  // Every page, whatever its path ends in: a screen's URL may end like a file
  // (/p/acme/recipients/a%40b.svg) and must still get its CSP, as must 404 and error pages.
  // Left out: API routes (they answer 401 themselves and get a static CSP from
  // next.config.mjs), build assets, and the one public file (public/favicon.svg, which
  // next.config.mjs gives a CSP of its own).
  matcher: [
    "/((?!api/|_next/static/|_next/image|favicon\\.svg$).*)",
    // API paths only when they hold a % escape: a malformed one is refused here (issue 12); the rest pass through.
    "/api/(.*%.*)",
  ],
};
