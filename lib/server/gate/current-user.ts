import "server-only";
import { cache } from "react";
import { loadActorAndProject, type Actor, type Project } from "./access";
import { auth } from "../auth/next-auth";
import type { SessionClaims } from "../auth/config";

/** The session cookie's claims as Auth.js reads them, once per request. */
const currentClaims = cache(async (): Promise<SessionClaims | null> => {
  const session = (await auth()) as { user?: { id?: string }; sid?: string | null } | null;
  return session?.user?.id && session.sid ? { sub: session.user.id, sid: session.sid } : null;
});

/**
 * Server components and server functions: session cookie → session row, fresh user row and
 * (when asked) the page's project, in the guard's one query — once per request and project
 * (React `cache`), so a project layout and its page share it. Kept apart from access.ts so
 * the checks there load without Auth.js.
 */
export const currentUserAndProject = cache(
  async (projectExternalId?: string): Promise<{ user: Actor | null; project: Project | null }> =>
    loadActorAndProject(await currentClaims(), projectExternalId),
);

/** The signed-in user of this request, or null. */
export const currentUser = cache(async (): Promise<Actor | null> => (await currentUserAndProject()).user);
