import path from "node:path";
import { fileURLToPath } from "node:url";
import { readEnvFile } from "../../scripts/lib/env-file";
import type { Role } from "../../lib/permissions";

/** What scripts/e2e.ts started for this run, passed in E2E_* variables. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`npm run test:e2e\`.`);
  return value;
}

export const run = {
  baseURL: required("E2E_BASE_URL"),
  serviceURL: required("E2E_SERVICE_URL"),
  /** The service's demo projects (external ids), registered by the dashboard at start. */
  projects: required("E2E_PROJECTS").split(","),
  admin: { email: required("E2E_ADMIN_EMAIL"), password: required("E2E_ADMIN_PASSWORD") },
  /** The service's inbound SMTP port, when it listens on one (the bundled service does; the contrarian does not). */
  smtpPort: process.env.E2E_SMTP_PORT ? Number(process.env.E2E_SMTP_PORT) : null,
};

/** The account-wide key, read where the service wrote it (never from the dashboard). */
export function serviceKey(): string {
  const key = readEnvFile(required("E2E_SERVICE_ENV_FILE")).SERVICE_API_KEY;
  if (!key) throw new Error("the service env file holds no SERVICE_API_KEY");
  return key;
}

/** A role, or an admin whose access is limited to the first demo project (run.projects[0]). */
export type Persona = Role | "limited-admin";

/**
 * One user per persona, created by auth.setup.ts; the admin is the one the dashboard created
 * at start. Support and marketer may open every project; the limited admin only the first.
 */
export function roleUser(persona: Persona): { email: string; password: string } {
  if (persona === "admin") return run.admin;
  return { email: `${persona}@e2e.test`, password: `${run.admin.password}-${persona}` };
}

// Each lane of the harness (scripts/lib/e2e-run.ts) signs in on its own stack: its own folder.
const AUTH_DIR = process.env.E2E_AUTH_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", ".auth");
export const authFile = (persona: Persona): string => path.join(AUTH_DIR, `${persona}.json`);

export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "test-results", "screenshots");
