import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import type { Permission } from "@/lib/permissions";
import { checkAccess, SECOND_FACTOR_SETUP, type Actor, type LoadActorAndProject, type Project } from "./access";
import { currentUserAndProject } from "./current-user";

/**
 * The ONE guard. Every route handler (through `route`) and page shell (`guardPage`) checks
 * its permission here; proxy.ts only redirects signed-out browsers and is never the only check.
 */
export { loadActor, userCanAccessProject, type Actor, type Project } from "./access";
export { currentUser } from "./current-user";
export { parseBody, parseQuery, route, type RouteContext } from "./route";

/** Header set by proxy.ts with the path and query of the page being rendered. */
export const PATHNAME_HEADER = "x-pathname";

/** A page's `[project]` segment: as written in the address, or the page's params. */
export type ProjectParam = string | Promise<{ project: string }>;

/**
 * For page shells: signed out (or disabled) → the sign-in page, coming back here afterwards;
 * a second factor the role requires still missing → the Account screen; permission missing → forbidden(); project unknown or not granted → notFound(). Given the
 * page's `[project]` (raw, or its params), it decodes it and answers with that project, read
 * in the same one query as the user (shared by the project layout and its page).
 */
export async function guardPage(permission: Permission): Promise<{ user: Actor }>;
export async function guardPage(permission: Permission, project: ProjectParam): Promise<{ user: Actor; project: Project }>;
export async function guardPage(permission: Permission, project?: ProjectParam): Promise<{ user: Actor; project?: Project }> {
  return checkPage(currentUserAndProject, permission, project);
}

/** `guardPage` with the user-and-project read given: the request's session in a page, any session in tests. */
export async function checkPage(load: LoadActorAndProject, permission: Permission, project?: ProjectParam): Promise<{ user: Actor; project?: Project }> {
  const raw = typeof project === "string" || project === undefined ? project : (await project).project;
  try {
    if (raw === undefined) return { user: (await checkAccess(load, permission)).user };
    return await checkAccess(load, permission, decodeParam(raw));
  } catch (e) {
    if (isAppError(e) && e.status === 401) {
      const path = (await headers()).get(PATHNAME_HEADER) || "/";
      redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
    }
    // The role requires a second factor the user lacks: set it up before anything else.
    if (isAppError(e) && e.code === SECOND_FACTOR_SETUP) redirect("/account");
    if (isAppError(e) && e.status === 403) forbidden();
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  }
}
