import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { isAppError } from "@/lib/errors";
import type { Permission } from "@/lib/permissions";
import { authorize } from "./access";
import { currentUser } from "./current-user";

/**
 * The ONE guard. Every route handler (through `route`), server function (`guard`) and page
 * shell (`guardPage`) checks its permission here; proxy.ts only redirects signed-out
 * browsers and is never the only check.
 */
export { loadActor, userCanAccessProject, type Actor, type Project } from "./access";
export { currentUser, guard } from "./current-user";
export { parseBody, parseQuery, route, type RouteContext } from "./route";

/** Header set by proxy.ts with the path and query of the page being rendered. */
export const PATHNAME_HEADER = "x-pathname";

/**
 * For page shells: signed out (or disabled) → the sign-in page, coming back here afterwards;
 * permission missing → forbidden(); project unknown or not granted → notFound().
 */
export async function guardPage(permission: Permission, project?: string) {
  const user = await currentUser();
  if (!user) {
    const path = (await headers()).get(PATHNAME_HEADER) || "/";
    redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  }
  try {
    return await authorize(user, permission, project === undefined ? {} : { project });
  } catch (e) {
    if (isAppError(e) && e.status === 403) forbidden();
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  }
}
