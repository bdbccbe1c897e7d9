import "server-only";
import { env } from "../env";

/** The base as last parsed, with the setting it was parsed from (tests change the setting). */
let parsed: { from: string; href: string; origin: string } | null = null;

/** The configured service base, always ending in "/" so paths join under any prefix. */
export function serviceBase(): URL {
  return new URL(base().href);
}

/** The base's text and origin, parsed once per setting: every call to the service joins a path onto it. */
function base(): { href: string; origin: string } {
  const from = env().SERVICE_URL;
  if (parsed?.from !== from) {
    const url = new URL(from);
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    parsed = { from, href: url.href, origin: url.origin };
  }
  return parsed;
}

/** Joins a path onto the base URL, refusing anything that could change the origin. */
export function serviceUrl(path: string, query?: Record<string, string | number | undefined>): URL {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) {
    throw new Error(`service path must be absolute and local: ${path}`);
  }
  const { href, origin } = base();
  const url = new URL(path.slice(1), href);
  if (url.origin !== origin) throw new Error(`service path escapes the service origin: ${path}`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
  }
  return url;
}
