import "server-only";
import { eq, notInArray } from "drizzle-orm";
import { ROLES, type Role } from "@/lib/permissions";
import type { TwoFactorPolicy } from "@/lib/schemas/two-factor";
import { withAudit, type AuditActor } from "./audit";
import { db } from "./db";
import { twoFactorRequiredRoles } from "./db/schema/two-factor";

/**
 * Which roles must have a second factor. The guard reads the table itself in its one query
 * (gate/access.ts), so a change counts from the very next request of every user.
 */
export async function getTwoFactorPolicy(): Promise<TwoFactorPolicy> {
  const d = await db();
  const rows = await d.select({ role: twoFactorRequiredRoles.role }).from(twoFactorRequiredRoles);
  const set = new Set(rows.map((r) => r.role));
  return { requiredRoles: ROLES.filter((r) => set.has(r)) };
}

export async function setTwoFactorPolicy(input: TwoFactorPolicy, actor: AuditActor): Promise<TwoFactorPolicy> {
  const roles: Role[] = ROLES.filter((r) => input.requiredRoles.includes(r));
  return withAudit({ actor, action: "settings.two_factor_policy", target: "two-factor sign-in", detail: { requiredRoles: roles } }, async () => {
    const d = await db();
    await d.transaction(async (tx) => {
      if (roles.length) await tx.delete(twoFactorRequiredRoles).where(notInArray(twoFactorRequiredRoles.role, roles));
      else await tx.delete(twoFactorRequiredRoles);
      if (roles.length) await tx.insert(twoFactorRequiredRoles).values(roles.map((role) => ({ role }))).onConflictDoNothing();
    });
    return getTwoFactorPolicy();
  });
}

/** Whether a role must have a second factor (the Account screen says so). */
export async function roleRequiresSecondFactor(role: Role): Promise<boolean> {
  const d = await db();
  const rows = await d.select({ role: twoFactorRequiredRoles.role }).from(twoFactorRequiredRoles).where(eq(twoFactorRequiredRoles.role, role)).limit(1);
  return rows.length > 0;
}
