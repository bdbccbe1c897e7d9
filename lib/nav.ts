import { allows, type AccessSubject, type Permission } from "@/lib/permissions";

/**
 * Every screen of the dashboard in one list: the sidebar, the command palette, the project
 * switcher and the layouts' permission check all read it, so a new screen appears everywhere
 * once added here (and its icon in components/shell/nav.ts). No icons here, so server code
 * reads it without loading them. `segment` is the folder under /p/[project]/ (empty for the
 * overview); `permission` is what a role needs to see the link at all.
 */
export type ProjectScreen = {
  key: string;
  label: string;
  segment: string;
  permission: Permission;
  keywords?: string[];
};

export type AdminScreen = { key: string; label: string; href: string; permission: Permission; keywords?: string[] };

export const PROJECT_SCREENS: ProjectScreen[] = [
  { key: "overview", label: "Overview", segment: "", permission: "overview:read", keywords: ["home", "health", "stats"] },
  { key: "deliverability", label: "Deliverability", segment: "deliverability", permission: "overview:read", keywords: ["providers", "gmail", "outlook", "yahoo", "bounces", "inbox"] },
  { key: "tags", label: "Tags", segment: "tags", permission: "overview:read", keywords: ["categories", "bounce rate by tag", "campaigns", "compare"] },
  { key: "alerts", label: "Alerts", segment: "alerts", permission: "overview:read", keywords: ["thresholds", "notifications", "bounce rate", "complaint rate"] },
  { key: "messages", label: "Messages", segment: "messages", permission: "messages:read", keywords: ["emails", "search", "logs", "inbound"] },
  { key: "compose", label: "Compose", segment: "compose", permission: "messages:send", keywords: ["send", "new", "write"] },
  { key: "batches", label: "Batches", segment: "batches", permission: "batches:send", keywords: ["csv", "bulk", "file", "campaign"] },
  { key: "scheduled", label: "Scheduled", segment: "scheduled", permission: "messages:read", keywords: ["later", "queue"] },
  { key: "templates", label: "Templates", segment: "templates", permission: "templates:read", keywords: ["preview", "variables"] },
  { key: "contacts", label: "Contacts", segment: "contacts", permission: "contacts:read", keywords: ["audience", "people", "import"] },
  { key: "suppressions", label: "Suppressions", segment: "suppressions", permission: "suppressions:read", keywords: ["blocked", "bounces", "unsubscribe"] },
  { key: "domains", label: "Domains", segment: "domains", permission: "domains:read", keywords: ["dns", "dkim", "spf", "verify"] },
  { key: "api-keys", label: "API keys", segment: "api-keys", permission: "api_keys:write", keywords: ["tokens", "secrets"] },
  { key: "webhooks", label: "Webhooks", segment: "webhooks", permission: "webhooks:read", keywords: ["events", "endpoints"] },
];

export const ADMIN_SCREENS: AdminScreen[] = [
  { key: "users", label: "Users", href: "/admin/users", permission: "users:manage", keywords: ["people", "roles", "accounts"] },
  { key: "projects", label: "Projects", href: "/admin/projects", permission: "projects:manage", keywords: ["register", "products"] },
  { key: "audit", label: "Audit log", href: "/admin/audit", permission: "audit:read", keywords: ["history", "who", "changes"] },
];

export function projectHref(project: string, segment = ""): string {
  const base = `/p/${encodeURIComponent(project)}`;
  return segment ? `${base}/${segment}` : base;
}

export function visibleProjectScreens(user: AccessSubject): ProjectScreen[] {
  return PROJECT_SCREENS.filter((s) => allows(user, s.permission));
}

/** Admin screens need every project too (lib/permissions.ts ACCOUNT_PERMISSIONS). */
export function visibleAdminScreens(user: AccessSubject): AdminScreen[] {
  return ADMIN_SCREENS.filter((s) => allows(user, s.permission));
}

/** Screens under /p/[project]/ that have no sidebar link of their own, with what they need. */
const UNLISTED_PROJECT_SEGMENTS: Record<string, Permission> = {
  inbound: "inbound:simulate",
  recipients: "messages:read",
};

/**
 * What the screen at `pathname` requires: the permission of its first segment under the
 * project (every screen below a sidebar entry requires what the entry does), or of the admin
 * screen it belongs to. Null for paths that are no screen. The layouts check it so a refused
 * page answers HTTP 403 before anything streams; each page still guards itself.
 */
export function screenPermission(pathname: string): Permission | null {
  const path = pathname.split(/[?#]/)[0];
  const inProject = /^\/p\/[^/]+(?:\/([^/]+))?/.exec(path);
  if (inProject) {
    const segment = inProject[1] ?? "";
    return PROJECT_SCREENS.find((s) => s.segment === segment)?.permission ?? UNLISTED_PROJECT_SEGMENTS[segment] ?? null;
  }
  // The user's own account: the one screen a user whose role requires a second factor they lack may open.
  if (path === "/account") return "account:own";
  return ADMIN_SCREENS.find((s) => isActive(path, s.href))?.permission ?? null;
}

/** The project in a /p/[project]/... path, decoded; null elsewhere. */
export function projectFromPath(pathname: string): string | null {
  const match = /^\/p\/([^/]+)/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/**
 * Where to go when switching to `project` from `pathname`: the same screen in the other
 * project. Only the screen is kept, not the record under it (a message id in one project
 * means nothing in another), and not the filters.
 */
export function switchProjectPath(pathname: string, project: string): string {
  const rest = /^\/p\/[^/]+\/?([^/?#]*)/.exec(pathname);
  const segment = rest?.[1] ?? "";
  const known = PROJECT_SCREENS.some((s) => s.segment === segment);
  return projectHref(project, known ? segment : "");
}

/** Which screen a path belongs to, for marking the current link. */
export function isActive(pathname: string, href: string, exact = false): boolean {
  if (exact) return pathname === href || pathname === `${href}/`;
  return pathname === href || pathname.startsWith(`${href}/`);
}
