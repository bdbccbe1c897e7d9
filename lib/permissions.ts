/**
 * The one map from role to permissions, and the one rule for users limited to some
 * projects. Shared by the server guard (which enforces it) and the screens (which hide or
 * disable what a user may not do). Not a secret. The README's roles table states the same
 * model in words; e2e/access.spec.ts checks the server against that table independently.
 */
export const ROLES = ["admin", "support", "marketer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "overview:read",
  /**
   * One's own account (the Account screen, one's own second factor): every role. The one
   * permission a user whose role requires a second factor they lack still has (gate/access.ts).
   */
  "account:own",
  "alerts:write",
  "messages:read",
  "messages:send",
  "messages:reply",
  "inbound:simulate",
  /** Erase one recipient's data from the dashboard's own records (lib/server/retention/erase.ts). */
  "recipients:erase",
  "batches:send",
  "templates:read",
  "templates:write",
  "contacts:read",
  "contacts:write",
  "suppressions:read",
  "suppressions:write",
  "domains:read",
  "domains:write",
  "api_keys:write",
  "api_keys:account_wide",
  "webhooks:read",
  "webhooks:write",
  "users:manage",
  "projects:manage",
  "audit:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYONE: Permission[] = ["overview:read", "account:own", "messages:read", "templates:read", "suppressions:read", "contacts:read", "domains:read"];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  support: new Set<Permission>([...EVERYONE, "messages:send", "messages:reply", "inbound:simulate", "suppressions:write", "recipients:erase"]),
  marketer: new Set<Permission>([...EVERYONE, "messages:send", "batches:send", "templates:write", "contacts:write"]),
};

/**
 * Permissions that reach beyond any one project: people and their grants, the project list,
 * the audit log (it records every project), and keys valid for every project. A user limited
 * to some projects never has them, whatever the role: with any of them a limited admin could
 * widen its own reach (grant itself a project, reset a full admin's password, mint an
 * account-wide key).
 */
export const ACCOUNT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  "users:manage",
  "projects:manage",
  "audit:read",
  "api_keys:account_wide",
]);

/** Who is asking: the role, and whether their project access is "every project". */
export type AccessSubject = { role: Role; allProjects: boolean };

/** The role map alone, for texts that describe a role ("Admins may …"). Decisions use `allows`. */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.has(permission) ?? false;
}

/** The whole rule: the role grants the permission, and account-wide ones need every project. */
export function allows(subject: AccessSubject, permission: Permission): boolean {
  if (!can(subject.role, permission)) return false;
  return subject.allProjects || !ACCOUNT_PERMISSIONS.has(permission);
}

/** Why `allows` said no, in words for a disabled control or a 403. */
export function refusalReason(subject: AccessSubject, permission: Permission): string {
  if (!can(subject.role, permission)) return `Your role (${ROLE_LABELS[subject.role]}) does not allow this (${permission}).`;
  return `Your access is limited to some projects; this needs access to every project (${permission}).`;
}

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", support: "Support", marketer: "Marketer" };
