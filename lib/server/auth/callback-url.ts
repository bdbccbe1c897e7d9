/**
 * Where to go after signing in: a path on this site only. Absolute URLs are accepted when
 * they point at PUBLIC_URL's origin and reduced to their path; anything else (other sites,
 * `//host`, `/\host`, `javascript:`) becomes "/". The sign-in page itself and /api are not
 * destinations either.
 */
export function safeCallbackUrl(raw: string | null | undefined, publicOrigin: string): string {
  if (!raw) return "/";
  let target: URL;
  try {
    target = new URL(raw, publicOrigin);
  } catch {
    return "/";
  }
  if (target.origin !== publicOrigin) return "/";
  // Relative input must itself be a plain path: "//evil" and "/\evil" resolve elsewhere in browsers.
  if (!/^https?:\/\//i.test(raw) && (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\"))) return "/";
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (target.pathname === "/login" || target.pathname.startsWith("/api/")) return "/";
  return path;
}
