import "server-only";
import { isAppError } from "@/lib/errors";
import { createProjectRequest } from "@/lib/schemas/projects";
import { SYSTEM_ACTOR } from "./audit";
import { withDbLock } from "./db";
import { env, EnvError } from "./env";
import { connectEventStreamsInBackground } from "./event-stream/connect";
import { startInsightWork } from "./alerts/background";
import { getProject, listAllProjects, registerProject } from "./projects";
import { startBatchSweeper } from "./batches/sweeper";
import { startRetention } from "./retention/background";
import { startEventWork } from "./event-stream/background";
import { startDmarcJobs } from "./dmarc/job";
import { ensureFirstAdmin } from "./users";

/**
 * What the server does once at start (from instrumentation.ts): check the environment,
 * open the database and migrate it, create the first admin, register the demo projects.
 * The one-time tasks hold a lock of the database, so instances started together on one
 * Postgres take turns instead of racing (the migrations have their own lock, lib/server/db).
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
  await withDbLock("mail-dashboard:start", async () => {
    await ensureFirstAdmin();
    await registerServiceProjects(env().SERVICE_PROJECTS);
  });
  void connectEventStreamsInBackground(listAllProjects); // message index: each project's webhook, once (lib/server/event-stream)
  startEventWork(); // re-reads of messages the stream announced, and the reconciler for when it is silent
  startBatchSweeper(); // batch jobs whose instance stopped are taken over without anyone opening them
  startRetention(); // index rows older than INDEX_RETENTION_DAYS, pruned in small batches
  startDmarcJobs(); // DMARC aggregate reports found among inbound mail, read one at a time
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
      // Read with the schema of the register route: an id from the environment is input too.
      const request = createProjectRequest.parse({ externalId, name: externalId });
      await registerProject(request, SYSTEM_ACTOR, { connectEventStream: false });
      log.info?.(`Registered project ${externalId}`);
    } catch (e) {
      const unreachable = isAppError(e) && e.status >= 500;
      if (unreachable) {
        try {
          await registerProject(createProjectRequest.parse({ externalId, name: externalId }), SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
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

/**
 * instrumentation.ts's entry: a start that fails ends the process with the reason. Next would
 * otherwise keep the server up and answer 500 to every request, /api/health included, so a
 * load balancer or process manager could not tell it apart from a working instance.
 */
export async function startOrExit(start: () => Promise<void> = startDashboard, exit: (code: number) => void = (code) => process.exit(code)): Promise<void> {
  try {
    await start();
  } catch (e) {
    const reason = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    console.error(`\nThe dashboard could not start: ${reason}\n`);
    exit(1);
  }
}
