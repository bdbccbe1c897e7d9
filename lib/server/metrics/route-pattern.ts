import "server-only";
import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * A request's path as the route that answers it ("/api/p/[project]/messages/[id]"), for the
 * `route` label: the patterns are the route definitions themselves, the folders of app/ that
 * hold a page or a route handler (route groups like `(dashboard)` left out, as Next does).
 * A path no pattern matches is "other", so the label's values are bounded by the routes that
 * exist, whatever paths anyone sends; a raw path (an address in /recipients/…) never becomes a label.
 */
export const OTHER = "other";
/** Next's own files, by their folder: assets are many, their routes few. */
const FRAMEWORK = [{ prefix: "/_next/static/", pattern: "/_next/static" }, { prefix: "/_next/image", pattern: "/_next/image" }];
/** Bounds on the scan of app/ (done once) and on a path's walk. */
const MAX_DEPTH = 16;
const MAX_SEGMENTS = 32;

type Node = { pattern: string | null; fixed: Map<string, Node>; param: Node | null; catchAll: string | null; optionalCatchAll: string | null };
const node = (): Node => ({ pattern: null, fixed: new Map(), param: null, catchAll: null, optionalCatchAll: null });

const ENDPOINT = /^(page|route)\.(tsx?|jsx?)$/;
const HIDDEN = (name: string) => name.startsWith("_") || name.startsWith("@") || name.startsWith(".") || name === "node_modules";

/** The route patterns under `appDir`, in no particular order. */
export function scanRoutePatterns(appDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, segments: string[], depth: number) => {
    if (depth > MAX_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && ENDPOINT.test(e.name))) out.push(`/${segments.join("/")}`);
    for (const e of entries) {
      if (!e.isDirectory() || HIDDEN(e.name)) continue;
      const group = e.name.startsWith("(") && e.name.endsWith(")");
      walk(path.join(dir, e.name), group ? segments : [...segments, e.name], depth + 1);
    }
  };
  walk(appDir, [], 0);
  return [...new Set(out)];
}

export type RouteMatcher = (pathname: string) => string;

/** A matcher over `patterns`: a fixed segment wins over a parameter, a parameter over a catch-all (Next's order). */
export function routeMatcher(patterns: string[]): RouteMatcher {
  const root = node();
  for (const pattern of patterns) {
    let at = root;
    let ended = false;
    for (const seg of pattern.split("/").filter(Boolean)) {
      // A catch-all is the last segment of its route.
      if (/^\[\[\.\.\.\w+\]\]$/.test(seg)) at.optionalCatchAll = pattern;
      else if (/^\[\.\.\.\w+\]$/.test(seg)) at.catchAll = pattern;
      else {
        at = /^\[\w+\]$/.test(seg) ? (at.param ??= node()) : at.fixed.get(seg) ?? (at.fixed.set(seg, node()), at.fixed.get(seg)!);
        continue;
      }
      ended = true;
      break;
    }
    if (!ended) at.pattern = pattern;
  }
  // A tree: each node is reached by one path, so a walk visits each at most once.
  const find = (at: Node, segs: string[], i: number): string | null => {
    if (i === segs.length) return at.pattern ?? at.optionalCatchAll;
    const fixed = at.fixed.get(segs[i]!);
    const viaFixed = fixed ? find(fixed, segs, i + 1) : null;
    if (viaFixed) return viaFixed;
    const viaParam = at.param ? find(at.param, segs, i + 1) : null;
    return viaParam ?? at.catchAll ?? at.optionalCatchAll;
  };
  return (pathname) => {
    for (const f of FRAMEWORK) if (pathname.startsWith(f.prefix)) return f.pattern;
    const segs = pathname.split("/").filter(Boolean);
    if (segs.length > MAX_SEGMENTS) return OTHER;
    return find(root, segs, 0) ?? OTHER;
  };
}

const KEY = Symbol.for("mail-dashboard.metrics.route-matcher");

/** The matcher for this checkout's app/ (where `next start` runs), built once. */
export function routePatternOf(url: string | undefined): string {
  const holder = globalThis as { [KEY]?: RouteMatcher };
  const match = (holder[KEY] ??= routeMatcher(scanRoutePatterns(path.join(process.cwd(), "app"))));
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return match(q < 0 ? raw : raw.slice(0, q));
}
