/**
 * Where to go after signing in: a path on this site only, or "/".
 *
 * The input is resolved against PUBLIC_URL's origin with the WHATWG URL parser (the one
 * browsers use: it drops tabs and newlines, reads "\" as "/", collapses "/./"), and the
 * decision is made on that normalised result, not on the raw text: "/.//evil.example"
 * looks like a path but normalises to "//evil.example", which a browser would follow to
 * another site. What comes back is checked once more the way the browser will read it.
 * The sign-in page itself and /api are not destinations either.
 */
export function safeCallbackUrl(raw: string | null | undefined, publicOrigin: string): string {
  if (!raw || raw.length > 2000) return "/";
  // Control characters (tab, newline, NUL…) and backslashes have no place in a path we hand
  // back; parsers disagree about them, which is what bypasses are made of.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return "/";
  let target: URL;
  try {
    target = new URL(raw, publicOrigin);
  } catch {
    return "/";
  }
  if (target.origin !== publicOrigin || target.username || target.password) return "/";
  // Absolute input is fine when it names our origin; otherwise it must be a plain path.
  if (!raw.toLowerCase().startsWith(`${publicOrigin.toLowerCase()}/`) && raw.toLowerCase() !== publicOrigin.toLowerCase() && !raw.startsWith("/")) {
    return "/";
  }
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (!isPlainPath(path, publicOrigin)) return "/";
  if (target.pathname === "/login" || target.pathname.startsWith("/login/") || target.pathname === "/api" || target.pathname.startsWith("/api/")) return "/";
  return path;
}

/** One leading slash, and it reads back as the same path on the same origin. */
function isPlainPath(path: string, publicOrigin: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(path)) return false;
  try {
    const again = new URL(path, publicOrigin);
    return again.origin === publicOrigin && `${again.pathname}${again.search}${again.hash}` === path;
  } catch {
    return false;
  }
}
