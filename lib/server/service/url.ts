import "server-only";
import { env } from "../env";

/** The configured service base, always ending in "/" so paths join under any prefix. */
export function serviceBase(): URL {
  const base = new URL(env().SERVICE_URL);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return base;
}

/** Joins a path onto the base URL, refusing anything that could change the origin. */
export function serviceUrl(path: string, query?: Record<string, string | number | undefined>): URL {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) {
    throw new Error(`service path must be absolute and local: ${path}`);
  }
  const base = serviceBase();
  const url = new URL(path.slice(1), base);
  if (url.origin !== base.origin) throw new Error(`service path escapes the service origin: ${path}`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
  }
  return url;
}
