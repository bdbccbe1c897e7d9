import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dueInOf } from "@/contract/db/due-gate";
import type { Db } from "@/lib/server/db";

/**
 * The DMARC job queue (table dmarc_jobs): inbound messages recognised as reports, read one
 * at a time in the background (./job.ts), never in the ingest. A message is queued once; its
 * row stays with the outcome, so later re-reads of the same message do nothing.
 */
export type DmarcJob = { projectId: string; messageId: string; attempts: number };

const ms = (n: number) => sql`(${String(Math.max(0, Math.round(n)))}::int * interval '1 millisecond')`;

export async function queueDmarcReport(d: Db, projectId: string, messageId: string): Promise<boolean> {
  const rows = rowsOf(
    await d.execute(sql`
      insert into dmarc_jobs (project_id, message_id) values (${projectId}, ${messageId})
      on conflict (project_id, message_id) do nothing returning message_id`),
  );
  return rows.length > 0;
}

/** Claims one due job under a lease (a job left by a stopped instance is taken again when its lease ends). */
export async function claimDmarcJob(d: Db, instance: string, leaseMs: number): Promise<DmarcJob | null> {
  const rows = rowsOf(
    await d.execute(sql`
      update dmarc_jobs j set claimed_by = ${instance}, lease_until = now() + ${ms(leaseMs)}
       where (j.project_id, j.message_id) in (
         select project_id, message_id from dmarc_jobs
          where outcome is null and due_at <= now() and (claimed_by is null or lease_until < now())
          order by due_at limit 1 for update skip locked)
      returning j.project_id, j.message_id, j.attempts`),
  );
  const r = rows[0];
  return r ? { projectId: String(r.project_id), messageId: String(r.message_id), attempts: Number(r.attempts) } : null;
}

/** How long until the next job falls due (ms; null: none open): the claim's condition as a time, for the due gate. */
export async function nextDmarcJobDue(d: Db): Promise<number | null> {
  return dueInOf(
    rowsOf(
      await d.execute(sql`
        select (extract(epoch from min(greatest(due_at, case when claimed_by is not null then lease_until end)) - now()) * 1000)::float8 as in_ms
          from dmarc_jobs where outcome is null`),
    ),
  );
}

/** Done, for good: `detail` says why when it is not "stored". */
export async function finishDmarcJob(d: Db, job: DmarcJob, outcome: string, detail: string | null): Promise<void> {
  await d.execute(sql`
    update dmarc_jobs set outcome = ${outcome}, last_error = ${detail}, claimed_by = null, lease_until = null
     where project_id = ${job.projectId} and message_id = ${job.messageId}`);
}

/** Not done (the service unreachable): tried again in `retryInMs`. */
export async function retryDmarcJob(d: Db, job: DmarcJob, retryInMs: number, error: string): Promise<void> {
  await d.execute(sql`
    update dmarc_jobs set claimed_by = null, lease_until = null, attempts = attempts + 1, last_error = ${error}, due_at = now() + ${ms(retryInMs)}
     where project_id = ${job.projectId} and message_id = ${job.messageId}`);
}
