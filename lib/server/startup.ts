import "server-only";
import { isAppError } from "@/lib/errors";
import { SYSTEM_ACTOR } from "./audit";
import { db } from "./db";
import { env, EnvError } from "./env";
import { connectEventStreamsInBackground } from "./event-stream/connect";
import { startInsightWork } from "./insight/background";
import { getProject, registerProject } from "./projects";
import { startEventWork } from "./rereads/background";
import { ensureFirstAdmin } from "./users";

/**
 * What the server does once at start (from instrumentation.ts): check the environment,
 * open the database and migrate it, create the first admin, register the demo projects.
 */
export async function startDashboard(): Promise<void> {
  try {
    env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`\n${e.message}\n\nSet these variables (see README) and start again.\n`);
      process.exit(1);
    }
    throw e;
  }
  await db();
  await ensureFirstAdmin();
  await registerServiceProjects(env().SERVICE_PROJECTS);
  connectEventStreamsInBackground(); // message index: each project's webhook (lib/server/event-stream)
  startEventWork(); // re-reads of messages the stream announced, and the reconciler for when it is silent
  startInsightWork(); // insight rollups, mailbox-provider lookups, alert checks and their notifications
}

/**
 * SERVICE_PROJECTS are registered when missing. Each is checked with the service; if the
 * service cannot be reached the project is registered anyway (the operator named it), if
 * the service refuses it the problem is logged and start-up continues.
 */
export async function registerServiceProjects(ids: string[], log = console): Promise<void> {
  for (const externalId of ids) {
    if (await getProject(externalId)) continue;
    try {
      await registerProject({ externalId, name: externalId }, SYSTEM_ACTOR);
      log.info?.(`Registered project ${externalId}`);
    } catch (e) {
      const unreachable = isAppError(e) && e.status >= 500;
      if (unreachable) {
        try {
          await registerProject({ externalId, name: externalId }, SYSTEM_ACTOR, { checkWithService: false });
          log.warn(`Registered project ${externalId} without checking it: the email service is not answering yet.`);
        } catch (again) {
          log.error(`Could not register project ${externalId}: ${again instanceof Error ? again.message : String(again)}`);
        }
      } else {
        log.error(`Could not register project ${externalId}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}
