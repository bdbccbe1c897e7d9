import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { baseAuthConfig } from "@/lib/server/auth/config";
import { env, isDevelopment } from "@/lib/server/env";
import { malformedPathResponse } from "@/lib/server/malformed-path";
import { createNonce, pageContentSecurityPolicy } from "@/lib/server/security-headers";

/**
 * Runs before every page: sets the page's Content-Security-Policy with a fresh nonce (passed
 * to the app in `x-nonce`), and sends signed-out browsers to /login. That redirect is a
 * convenience only: every page, route and server function checks access itself (guard.ts).
 * The session is read with the database-free half of the auth config.
 */
const { auth } = NextAuth(() => baseAuthConfig());

/** Reachable without a session; everything else in the matcher needs one. */
function isPublicPage(pathname: string): boolean {
  return pathname === "/login" || pathname.startsWith("/login/");
}

const withSession = auth((req) => {
  const nonce = createNonce();
  const csp = pageContentSecurityPolicy(nonce, { dev: isDevelopment, https: env().publicOrigin.startsWith("https:") });
  const { pathname, search } = req.nextUrl;

  if (!req.auth && !isPublicPage(pathname)) {
    const login = new URL("/login", req.nextUrl);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    const res = NextResponse.redirect(login);
    res.headers.set("Content-Security-Policy", csp);
    return res;
  }

  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  // Next reads the nonce for its own scripts from the request's CSP header.
  requestHeaders.set("Content-Security-Policy", csp);
  // For guardPage(): where to come back to after signing in.
  requestHeaders.set("x-pathname", `${pathname}${search}`);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
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
  // Pages only: API routes answer 401 themselves and get a static CSP from next.config.ts;
  // build assets and public files (favicon.ico, robots.txt, images) need neither. Only known
  // file extensions are skipped: a project id may contain a dot (/p/acme.prod).
  matcher: [
    "/((?!api/|_next/static/|_next/image|.*\\.(?:ico|png|jpe?g|gif|svg|webp|avif|txt|xml|webmanifest|css|js|map|woff2?)$).*)",
    // API paths only when they hold a % escape: the check above (issue 12); the rest pass through.
    "/api/(.*%.*)",
  ],
};
