import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN_SCREENS, PROJECT_SCREENS, visibleAdminScreens } from "../../components/shell/nav";
import { can, PERMISSIONS, type Permission, type Role } from "../../lib/permissions";

/**
 * The routes that exist, read from app/ itself: e2e/access.spec.ts checks that each one has
 * a row in its table of expected answers, so a screen or API route added later fails the
 * test until someone writes down who may use it. The permission each route declares is read
 * too, but only for checks of the routes' own consistency (sidebar link vs. page guard):
 * what each role may do comes from that table, never from the route's own source.
 */
const APP_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "app");

function filesNamed(dir: string, name: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesNamed(full, name));
    else if (name.test(entry.name)) out.push(full);
  }
  return out;
}

/** `app/(dashboard)/p/[project]/messages/page.tsx` → `/p/[project]/messages`. */
function urlPattern(file: string): string {
  const segments = path
    .relative(APP_DIR, path.dirname(file))
    .split(path.sep)
    .filter((s) => s && !/^\(.*\)$/.test(s) && !s.startsWith("@"));
  return `/${segments.join("/")}`;
}

export interface ScreenRoute {
  pattern: string;
  file: string;
  /** The permission its page shell passes to guardPage(), when it has one. */
  permission: Permission | null;
  /** Whether a signed-in user of this role may open it. */
  allowed(role: Role): boolean;
}

export interface ApiRoute {
  pattern: string;
  file: string;
  method: string;
  /** Null for routes open without a session (health). */
  permission: Permission | null;
  /** Authenticated by a signature instead of a session: the service's webhook deliveries. */
  signed: boolean;
}

/** Routes the service calls, authenticated by their Standard Webhooks signature. */
const SIGNED_ROUTES = new Set(["/api/ingest/[project]"]);

/**
 * Pages that guard nothing themselves: the sign-in page, and the two that only redirect a
 * signed-in user onwards ("/" to a project, "/admin" to the first admin screen the role has).
 */
const UNGUARDED: Record<string, (role: Role) => boolean> = {
  "/login": () => true,
  "/": () => true,
  "/admin": (role) => visibleAdminScreens({ role, allProjects: true }).length > 0,
};

/**
 * Every page with what it requires, read from the permission its shell passes to
 * `guardPage(permission, ...)` (lib/server/gate/guard.ts), so the expectation is the page's own
 * declaration checked against the one role map.
 */
export function screenRoutes(): ScreenRoute[] {
  return filesNamed(APP_DIR, /^page\.tsx?$/)
    .map((file): ScreenRoute => {
      const pattern = urlPattern(file);
      const declared = readFileSync(file, "utf8").match(/guardPage\s*(?:<[^>]*>)?\(\s*"([^"]+)"/)?.[1] as Permission | undefined;
      if (declared) {
        if (!PERMISSIONS.includes(declared)) throw new Error(`${file}: unknown permission ${declared}`);
        return { pattern, file, permission: declared, allowed: (role) => can(role, declared) };
      }
      const rule = UNGUARDED[pattern];
      if (!rule) throw new Error(`${path.relative(APP_DIR, file)} does not call guardPage(permission, ...): every screen checks its own access.`);
      return { pattern, file, permission: null, allowed: rule };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** The permission the sidebar shows a screen's link for (components/shell/nav.ts). */
export function navPermission(pattern: string): Permission | null {
  const admin = ADMIN_SCREENS.find((s) => s.href === pattern);
  if (admin) return admin.permission;
  const screen = PROJECT_SCREENS.find((s) => (s.segment ? `/p/[project]/${s.segment}` : "/p/[project]") === pattern);
  return screen?.permission ?? null;
}

const HANDLER = /export\s+const\s+(GET|POST|PUT|PATCH|DELETE)\s*=\s*route\s*(?:<[^>]*>)?\(\s*(null|"([^"]+)")/g;

/**
 * A route file that only delegates (`export const GET = messageReadRoute;`, the handler shared
 * with a door before Next): the `route(permission, fn)` call in the module it imports the
 * handler from, matched as HANDLER matches a route file's own (method in [1], permission in [2], [3]).
 */
function delegatedHandler(source: string, method: string): RegExpMatchArray | undefined {
  const name = new RegExp(`export\\s+const\\s+${method}\\s*=\\s*(\\w+)\\s*;`).exec(source)?.[1];
  const from = name && new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*"@/([^"]+)"`).exec(source)?.[1];
  if (!name || !from) return undefined;
  const module = readFileSync(path.join(APP_DIR, "..", `${from}.ts`), "utf8");
  const call = new RegExp(`export\\s+const\\s+${name}\\s*=\\s*route\\s*(?:<[^>]*>)?\\(\\s*(null|"([^"]+)")`).exec(module);
  return call ? ([call[0], method, call[1], call[2]] as unknown as RegExpMatchArray) : undefined;
}

/**
 * Every exported method of every route handler with the permission it passes to the one
 * wrapper, `route(permission, fn)` (lib/server/gate/route.ts). A handler not written that way is
 * reported: the rule is that every route goes through the guard.
 */
export function apiRoutes(): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const file of filesNamed(path.join(APP_DIR, "api"), /^route\.tsx?$/)) {
    const source = readFileSync(file, "utf8");
    const pattern = urlPattern(file);
    if (pattern.startsWith("/api/auth/[")) continue; // Auth.js's own sign-in endpoints ([...nextauth]).
    const exported = [...source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
    for (const method of exported) {
      if (SIGNED_ROUTES.has(pattern)) {
        out.push({ pattern, file, method, permission: null, signed: true });
        continue;
      }
      const match = [...source.matchAll(HANDLER)].find((m) => m[1] === method) ?? delegatedHandler(source, method!);
      if (!match) throw new Error(`${path.relative(APP_DIR, file)} exports ${method} without the route(permission, fn) wrapper.`);
      const permission = match[2] === "null" ? null : (match[3] as Permission);
      if (permission && !PERMISSIONS.includes(permission)) throw new Error(`${file}: unknown permission ${permission}`);
      out.push({ pattern, file, method, permission, signed: false });
    }
  }
  return out.sort((a, b) => `${a.pattern} ${a.method}`.localeCompare(`${b.pattern} ${b.method}`));
}

/**
 * A concrete URL for a pattern. Each dynamic segment takes the value named after it with
 * the segment before it (`messages/[id]`), else after itself (`[project]`); one without a
 * value gets a made-up one, which an allowed role may answer with 404.
 */
export function fill(pattern: string, values: Record<string, string>): string {
  const segments = pattern.split("/");
  return segments
    .map((segment, i) => {
      const name = segment.match(/^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/)?.[1];
      if (!name) return segment;
      const value = values[`${segments[i - 1]}/[${name}]`] ?? values[name] ?? `e2e-missing-${name}`;
      return encodeURIComponent(value);
    })
    .join("/");
}

/** Whether `fill` had a real record for every dynamic segment of the pattern. */
export function fullyKnown(pattern: string, values: Record<string, string>): boolean {
  return !fill(pattern, values).includes("e2e-missing-");
}
