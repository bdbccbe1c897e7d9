import { readdirSync } from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import { apiRequest } from "@/lib/server/test-helpers";

/**
 * Test-only: the browser's `fetch` of our own /api routes answered by the route handlers
 * themselves, in this process, as the signed-in user of `cookie()`; every other URL (the
 * service the handlers call) goes to the network as usual. With it, the client calls of
 * lib/queries run unchanged against real answers.
 */
const API_DIR = __dirname;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** app/api/<…>/route.ts for a path, with the values of its dynamic segments. */
function resolveRoute(pathname: string): { file: string; params: Record<string, string> } {
  const segments = pathname.replace(/^\/api\/?/, "").split("/").filter(Boolean);
  let dir = API_DIR;
  const params: Record<string, string> = {};
  for (const raw of segments) {
    const segment = decodeURIComponent(raw);
    const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    if (entries.includes(segment)) {
      dir = path.join(dir, segment);
      continue;
    }
    const dynamic = entries.find((e) => /^\[[^.]+\]$/.test(e));
    if (!dynamic) throw new Error(`no route for ${pathname}`);
    params[dynamic.slice(1, -1)] = segment;
    dir = path.join(dir, dynamic);
  }
  return { file: path.join(dir, "route.ts"), params };
}

/** `origin` is the dashboard's own (PUBLIC_URL), which the browser sends on every write. */
export function routeFetch(user: { cookie: () => string; origin: string }): { restore: () => void } {
  const network = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith("/api/")) return network(input, init);
    const { pathname } = new URL(url, "http://localhost:3000");
    const { file, params } = resolveRoute(pathname);
    const method = (init.method ?? "GET").toUpperCase();
    const route = (await import(/* @vite-ignore */ file)) as Record<string, Handler | undefined>;
    const handler = route[method];
    if (!handler) throw new Error(`${method} ${pathname}: the route has no such handler`);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req = await apiRequest(url, { method, cookie: user.cookie(), origin: user.origin, headers, body: typeof init.body === "string" ? init.body : undefined });
    return handler(req, { params: Promise.resolve(params) });
  });
  return { restore: () => vi.unstubAllGlobals() };
}
