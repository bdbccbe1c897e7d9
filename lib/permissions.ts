/**
 * The one map from role to permissions. Shared by the server guard (which enforces it)
 * and the screens (which hide or disable what a role may not do). Not a secret.
 */
export const ROLES = ["admin", "support", "marketer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "overview:read",
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
  "webhooks:read",
  "webhooks:write",
  "users:manage",
  "projects:manage",
  "audit:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYONE: Permission[] = ["overview:read", "messages:read", "templates:read", "suppressions:read", "contacts:read", "domains:read"];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  support: new Set<Permission>([...EVERYONE, "messages:send", "messages:reply", "inbound:simulate", "suppressions:write", "recipients:erase"]),
  marketer: new Set<Permission>([...EVERYONE, "messages:send", "batches:send", "templates:write", "contacts:write"]),
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.has(permission) ?? false;
}

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", support: "Support", marketer: "Marketer" };
