import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "./access";
import { SYSTEM_ACTOR } from "../audit";
import { useTestDb } from "../db/test-db";
import { registerProject } from "../projects";
import { route } from "./route";
import { apiRequest, params, sessionCookie, setTestEnv } from "../test-helpers";
import { createUser, setUserProjects } from "../users";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * `route()` resolves, decodes and checks the route's `[project]` itself and hands a
 * project-scoped handler a project that is never null; unknown, malformed or refused
 * projects answer 404 before the handler runs, as they did when handlers took `project!`.
 */
let dispose: () => Promise<void>;
let colon: Project;
let support: string;
let limited: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  const opts = { checkWithService: false, connectEventStream: false };
  colon = await registerProject({ externalId: "team:mail", name: "Team mail" }, SYSTEM_ACTOR, opts);
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, opts);
  const user = async (email: string, role: "support" | "marketer", projectIds?: string[]) => {
    const { user } = await createUser(createUserRequest.parse({ email, role, password: "correct horse battery", allProjects: !projectIds }), SYSTEM_ACTOR);
    if (projectIds) await setUserProjects(user.id, { allProjects: false, projectIds }, SYSTEM_ACTOR);
    return sessionCookie(user.id);
  };
  support = await user("support@example.com", "support");
  limited = await user("limited@example.com", "marketer", [other.id]);
});
afterAll(() => dispose());

/** What the handler saw: its context's keys and the project it was handed. */
const seen: { keys: string[]; project?: Project }[] = [];
const scoped = route<{ project: string; id: string }>("messages:read", async (ctx) => {
  seen.push({ keys: Object.keys(ctx).sort(), project: ctx.project });
  return { project: ctx.project.externalId, id: ctx.params.id };
});
const unscoped = route("messages:read", async (ctx) => {
  seen.push({ keys: Object.keys(ctx).sort() });
  return { user: ctx.user.email };
});

async function call(handler: typeof scoped, project: string, cookie = support) {
  seen.length = 0;
  const res = await handler(await apiRequest(`/api/p/${project}/things/m1`, { cookie }), params({ project, id: "m1" }));
  return { status: res.status, body: await res.json() };
}

describe("route() with a [project]", () => {
  it("hands the handler the project, decoded from the address", async () => {
    expect(await call(scoped, "team:mail")).toEqual({ status: 200, body: { project: "team:mail", id: "m1" } });
    expect(seen[0].project).toEqual(colon);
    expect(seen[0].keys).toEqual(["correlationId", "params", "project", "req", "user"]);
    // How the dashboard's own queries address it (encodeURIComponent), answered the same.
    expect(await call(scoped, "team%3Amail")).toEqual({ status: 200, body: { project: "team:mail", id: "m1" } });
  });

  it("answers 404 for an unknown, malformed, NUL-escaped or not granted project, before the handler runs", async () => {
    const notFound = { status: 404, body: { error: { code: "project_not_found", message: "Project not found, or you do not have access to it.", param: null, correlationId: expect.any(String) } } };
    for (const raw of ["nope", "%zz", "%00", "team%253Amail"]) expect(await call(scoped, raw), raw).toEqual(notFound);
    expect(await call(scoped, "team:mail", limited)).toEqual(notFound);
    expect(seen).toEqual([]);
  });

  it("keeps 401 signed out and 403 without the permission ahead of the project", async () => {
    expect((await call(scoped, "nope", "")).status).toBe(401);
    const refusing = route<{ project: string; id: string }>("webhooks:write", async ({ project }) => ({ project: project.externalId }));
    expect((await call(refusing, "nope")).body.error.code).toBe("forbidden");
    expect(seen).toEqual([]);
  });

  it("gives a route without a project none, and a route without sign-in neither user nor project", async () => {
    seen.length = 0;
    const res = await unscoped(await apiRequest("/api/things", { cookie: support }), params({}));
    expect(await res.json()).toEqual({ user: "support@example.com" });
    expect(seen[0].keys).toEqual(["correlationId", "params", "req", "user"]);
    const open = route<{ project: string }>(null, async (ctx) => ({ keys: Object.keys(ctx).sort(), user: ctx.user }));
    const answer = await open(await apiRequest("/api/p/nope/x"), params({ project: "nope" }));
    expect(await answer.json()).toEqual({ keys: ["correlationId", "params", "req", "user"], user: null });
  });
});
