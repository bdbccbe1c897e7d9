import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dueInOf } from "@/contract/db/due-gate";
import { db, dueGate, type Db } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { isRunningHere, runJob } from "./runner";
import { removeAbandonedPreparing } from "./store";

/**
 * One pass of the sweeper: jobs whose instance died while storing their file are deleted
 * (they were never confirmed to the user, nothing of them was sent), every running job with a chunk nobody holds (pending, or its lease
 * ran out) is run here too, and a job whose chunks are all done but whose instance died
 * before saying so is marked done. Answers the ids of the jobs it started running.
 */
export async function sweepJobs(): Promise<string[]> {
  const d = await db();
  await removeAbandonedPreparing(d);
  await d.execute(sql`
    update batch_jobs j set status = 'done', finished_at = now(), updated_at = now()
     where j.status = 'running' and not exists (select 1 from batch_chunks c where c.job_id = j.id and c.status <> 'done')`);
  const open = rowsOf<{ id: string }>(
    await d.execute(sql`
      select j.id from batch_jobs j
       where j.status = 'running'
         and exists (select 1 from batch_chunks c where c.job_id = j.id and (c.status = 'pending' or (c.status = 'claimed' and c.lease_until < now())))`),
  );
  const started: string[] = [];
  for (const { id } of open) {
    if (isRunningHere(id)) continue;
    void runJob(id);
    started.push(id);
  }
  return started;
}

/** The sweeper's due gate: a job still preparing or running may need it now (0); with none, nothing can (null). */
export async function openJobsDue(d: Db): Promise<number | null> {
  return dueInOf(rowsOf(await d.execute(sql`select (case when exists (select 1 from batch_jobs where status in ('preparing', 'running')) then 0 end)::float8 as in_ms`)));
}

const SWEEPER = Symbol.for("mail-dashboard.batch-sweeper");
type Sweeper = { timer: ReturnType<typeof setInterval>; pass: Promise<unknown> | null };
const sweeperHolder = () => globalThis as { [SWEEPER]?: Sweeper };

/**
 * Started once per dashboard process (lib/server/startup.ts), never at import: without it a
 * job whose instance died stays `running` until someone opens it. With several instances
 * each runs it; chunks are claimed with SKIP LOCKED, so they share the job instead of racing.
 */
export function startBatchSweeper(everyMs = env().BATCH_SWEEP_MS): void {
  const holder = sweeperHolder();
  if (holder[SWEEPER]) return;
  // On PGlite, an idle dashboard's sweeps ask the database nothing between writes (lib/server/db dueGate).
  const gate = dueGate(openJobsDue);
  const sweeper: Sweeper = {
    pass: null,
    timer: setInterval(() => {
      if (sweeper.pass) return;
      sweeper.pass = gate
        .due()
        .then((due) => (due ? sweepJobs() : []))
        .catch((e) => console.warn(`batch sweeper: ${safeErrorSummary(e)}`))
        .finally(() => (sweeper.pass = null));
    }, everyMs),
  };
  sweeper.timer.unref?.();
  holder[SWEEPER] = sweeper;
}

/** Stops the sweeper and waits for its pass (tests); jobs it started run on until they have no chunk left. */
export async function stopBatchSweeper(): Promise<void> {
  const holder = sweeperHolder();
  const sweeper = holder[SWEEPER];
  delete holder[SWEEPER];
  if (!sweeper) return;
  clearInterval(sweeper.timer);
  await sweeper.pass;
}

