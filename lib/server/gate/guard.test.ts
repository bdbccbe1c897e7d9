import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadActorAndProject, type LoadActorAndProject, type Project } from "./access";
import { SYSTEM_ACTOR } from "../audit";
import { createSession } from "../auth/sessions";
import { useTestDb } from "../db/test-db";
import { checkPage } from "./guard";
import { registerProject } from "../projects";
import { setTestEnv } from "../test-helpers";
import { createUser, setUserProjects } from "../users";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * `guardPage` (through `checkPage`, the same code with the session given): it decodes the
 * page's `[project]`, reads user and project in one query, and answers a non-null project or
 * Next's own not-found / forbidden interrupts — as the pages did when they decoded themselves.
 */
let dispose: () => Promise<void>;
let support: LoadActorAndProject;
let limited: LoadActorAndProject;
let colon: Project;
/** Every project id the loader was asked for, in order. */
const asked: (string | undefined)[] = [];

beforeAll(async () => {
  // next.config.mjs turns on authInterrupts, which is what lets forbidden() run.
  process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS = "1";
  setTestEnv();
  ({ dispose } = await useTestDb());
  colon = await registerProject({ externalId: "team:mail" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const loader = async (email: string, role: "support" | "marketer", projectIds?: string[]) => {
    const { user } = await createUser(createUserRequest.parse({ email, role, password: "correct horse battery", allProjects: !projectIds }), SYSTEM_ACTOR);
    if (projectIds) await setUserProjects(user.id, { allProjects: false, projectIds }, SYSTEM_ACTOR);
    const session = await createSession(user.id, "password");
    return (project?: string) => {
      asked.push(project);
      return loadActorAndProject({ sub: user.id, sid: session.id }, project);
    };
  };
  support = await loader("support@example.com", "support");
  limited = await loader("limited@example.com", "marketer", [other.id]);
});
afterAll(() => dispose());

/** The digest of Next's interrupt thrown (notFound, forbidden, redirect), or the error itself. */
async function interrupt(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const digest = (e as { digest?: unknown }).digest;
    if (typeof digest === "string") return digest;
    throw e;
  }
  throw new Error("the guard let the page through");
}

describe("guardPage", () => {
  it("decodes the raw [project] once and hands the page that project, from one read", async () => {
    asked.length = 0;
    const { user, project } = await checkPage(support, "messages:read", "team%3Amail");
    expect(project).toEqual(colon);
    expect(user.email).toBe("support@example.com");
    expect(asked).toEqual(["team:mail"]);
  });

  it("takes the page's params promise as well", async () => {
    const { project } = await checkPage(support, "messages:read", Promise.resolve({ project: "team%3Amail", id: "m1" }));
    expect(project?.externalId).toBe("team:mail");
  });

  it("answers not found for an unknown, malformed or NUL-escaped project, as for one not granted", async () => {
    for (const raw of ["nope", "%zz", "%00", "team%253Amail"]) {
      expect(await interrupt(checkPage(support, "messages:read", raw)), raw).toBe("NEXT_HTTP_ERROR_FALLBACK;404");
    }
    expect(await interrupt(checkPage(limited, "messages:read", "team:mail"))).toBe("NEXT_HTTP_ERROR_FALLBACK;404");
  });

  it("refuses a missing permission with forbidden, before it says anything about the project", async () => {
    expect(await interrupt(checkPage(support, "webhooks:write", "nope"))).toBe("NEXT_HTTP_ERROR_FALLBACK;403");
    expect(await interrupt(checkPage(support, "users:manage"))).toBe("NEXT_HTTP_ERROR_FALLBACK;403");
  });

  it("trusts the project of its one read and does not look it up again", async () => {
    const withoutProject: LoadActorAndProject = async (p) => ({ ...(await support(p)), project: null });
    expect(await interrupt(checkPage(withoutProject, "messages:read", "team:mail"))).toBe("NEXT_HTTP_ERROR_FALLBACK;404");
  });

  it("without a project answers the user alone", async () => {
    asked.length = 0;
    const answer = await checkPage(support, "messages:read");
    expect(Object.keys(answer)).toEqual(["user"]);
    expect(asked).toEqual([undefined]);
  });

  it("leads a user whose role requires a second factor they lack to the Account screen, from every page but that one", async () => {
    const due: LoadActorAndProject = async (p) => {
      const loaded = await support(p);
      return { ...loaded, user: loaded.user && { ...loaded.user, secondFactorDue: true } };
    };
    expect(await interrupt(checkPage(due, "messages:read", "team:mail"))).toMatch(/^NEXT_REDIRECT;replace;\/account;/);
    expect(await interrupt(checkPage(due, "overview:read"))).toMatch(/^NEXT_REDIRECT;replace;\/account;/);
    expect((await checkPage(due, "account:own")).user.email).toBe("support@example.com");
  });
});
