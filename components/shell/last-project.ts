/**
 * The last project a user opened, remembered in a plain cookie (not a secret, not used for
 * access: the guard still checks every request) so "/" and the admin screens can bring them
 * back to it.
 */
export const LAST_PROJECT_COOKIE = "mailroom_project";

export function pickProject<T extends { externalId: string }>(projects: T[], preferred: string | null | undefined): T | null {
  if (preferred) {
    const found = projects.find((p) => p.externalId === preferred);
    if (found) return found;
  }
  return projects[0] ?? null;
}

export function rememberProjectCookie(externalId: string): string {
  return `${LAST_PROJECT_COOKIE}=${encodeURIComponent(externalId)}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
