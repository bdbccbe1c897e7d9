import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import type { Role } from "../../lib/permissions";
import { api } from "../fixtures";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
}

/**
 * A user of its own for a test that changes or locks it, created through the admin API. A new
 * user opens no project unless given some; by default this one may open every project.
 */
export async function createUser(
  adminPage: Page,
  role: Role,
  label: string,
  access: { allProjects: boolean; projectIds?: string[] } = { allProjects: true },
): Promise<TestUser> {
  const email = `${label}-${randomBytes(4).toString("hex")}@e2e.test`;
  const password = `pw-${randomBytes(12).toString("base64url")}`;
  const answer = await api(adminPage, "POST", "/api/admin/users", { email, name: `E2E ${label}`, role, password, ...access });
  if (answer.status !== 201) throw new Error(`creating ${email}: HTTP ${answer.status} ${answer.text}`);
  const { user } = answer.json as { user: { id: string } };
  return { id: user.id, email, password, role };
}

/** The dashboard's own id of a registered project, for access grants. */
export async function projectId(adminPage: Page, externalId: string): Promise<string> {
  const answer = await api(adminPage, "GET", "/api/projects");
  const list = (answer.json as { data?: { id: string; externalId: string }[] } | null)?.data ?? [];
  const found = list.find((p) => p.externalId === externalId);
  if (!found) throw new Error(`project ${externalId} is not registered: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return found.id;
}
