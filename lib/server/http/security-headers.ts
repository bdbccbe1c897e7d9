import staticHeaders from "./static-headers.json";

/**
 * Security headers. No "server-only" import: proxy.ts runs them too; next.config.mjs reads the
 * static ones from static-headers.json.
 * The Content-Security-Policy of pages carries a per-request nonce and is set by proxy.ts;
 * Next.js reads the nonce from it and puts it on its own scripts.
 */
export function pageContentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic': scripts loaded by a nonce'd script are trusted, nothing else is.
    // Development needs eval for React's debugging aids.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    // Inline styles come from Radix positioning and next-themes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // https: only so an email frame can show remote images once the viewer allows them;
    // the frame's own CSP meta blocks them until then, and the dashboard shows none itself.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${opts.dev ? " ws: wss:" : ""}`,
    // Email previews are srcdoc iframes, sandboxed without allow-scripts.
    "frame-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/**
 * JSON and files need no scripts at all, and `sandbox` gives any of them opened on its own
 * (an attachment, an SVG) an opaque origin. next.config.mjs sets it on every /api answer, and
 * Next then drops a route's own Content-Security-Policy (the config's header comes first):
 * so this one policy is the attachment download's sandbox too.
 */
export const API_CONTENT_SECURITY_POLICY: string = staticHeaders.apiContentSecurityPolicy;

/**
 * Headers for every response, pages and API alike (static-headers.json, which
 * next.config.mjs reads too). Referrer-Policy same-origin is stricter than
 * strict-origin-when-cross-origin: links in previewed mail learn nothing about us.
 */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = staticHeaders.staticSecurityHeaders;

/**
 * HSTS, only when the dashboard is served over https (PUBLIC_URL): browsers then refuse plain
 * http for this host for two years. Sent with every page (proxy.ts); a browser keeps it for
 * the whole origin, API included.
 */
export function strictTransportSecurity(https: boolean): string | null {
  return https ? "max-age=63072000; includeSubDomains" : null;
}

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
