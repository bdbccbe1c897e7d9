import { afterAll, beforeAll } from "vitest";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";

/**
 * A fresh test database (useTestDb) holding one registered project, for the tests of the file
 * that calls this at its top: made before them, disposed after them. `project` is set once
 * the file's first hook has run.
 */
export function useTestProject(externalId = "p1"): { readonly project: Project } {
  const fixture = {} as { project: Project };
  let dispose = async () => {};
  beforeAll(async () => {
    setTestEnv();
    ({ dispose } = await useTestDb());
    fixture.project = await registerProject({ externalId }, SYSTEM_ACTOR, { checkWithService: false });
  });
  afterAll(() => dispose());
  return fixture;
}

/**
 * A project registered without asking the service, its event stream connected before this
 * returns (not in the background, where it would race the test): for tests of what arrives
 * through the stream. Needs SERVICE_URL set to a service that answers POST /v1/webhooks.
 */
export async function streamedTestProject(externalId: string): Promise<Project> {
  const project = await registerProject({ externalId }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  await connectEventStream(project);
  return project;
}
