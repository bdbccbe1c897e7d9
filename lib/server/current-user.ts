import "server-only";
import { cache } from "react";
import type { Permission } from "@/lib/permissions";
import { authorize, loadActor, type Actor } from "./access";
import { auth } from "./auth";

/**
 * Server components and server functions: session cookie → session row and fresh user row,
 * once per request (React `cache`). Kept apart from access.ts so the checks there load without Auth.js.
 */
export const currentUser = cache(async (): Promise<Actor | null> => {
  const session = (await auth()) as { user?: { id?: string }; sid?: string | null } | null;
  return loadActor(session?.user?.id && session.sid ? { sub: session.user.id, sid: session.sid } : null);
});

/** For server components and server functions: 401 signed out, 403 permission, 404 project. */
export async function guard(permission: Permission, opts: { project?: string } = {}) {
  return authorize(await currentUser(), permission, opts);
}
