import "server-only";
import { fromTrustedProxy } from "./client-address";
import { env } from "@/lib/server/env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Writes must come from our own pages. Browsers send `Origin` on every cross-site write and
 * a page elsewhere cannot forge it; `Sec-Fetch-Site: same-origin` covers browsers that omit
 * Origin on same-origin requests. Anything else (no header, `null`, another site) is refused.
 *
 * The host compared with Origin is `Host`, or `X-Forwarded-Host` only when the TCP peer is a
 * proxy listed in TRUSTED_PROXIES, and then its rightmost value (the one that proxy added, read
 * from the right like X-Forwarded-For in client-address.ts): anyone can write that header (a
 * script, curl), and a client that names its own Origin in it must not pass.
 */
export function isSameOriginWrite(req: Request): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return true;
  const origin = req.headers.get("origin");
  if (origin && origin !== "null") {
    if (origin === env().publicOrigin) return true;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return false;
    }
    // The rightmost value: the one our proxy wrote. Values left of it came with the request
    // (a client may send its own header, which a proxy that appends keeps), as in X-Forwarded-For.
    const forwarded = fromTrustedProxy(req.headers) ? req.headers.get("x-forwarded-host")?.split(",").pop()?.trim() : undefined;
    const host = forwarded || req.headers.get("host");
    return Boolean(host) && originHost === host;
  }
  return req.headers.get("sec-fetch-site") === "same-origin";
}
