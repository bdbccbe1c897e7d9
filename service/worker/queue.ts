import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { jobs } from "../db/schema";
import type { Deps } from "../context";
import { safeErrorSummary } from "../../contract/log/safe-error";
import { rowsOf } from "../../contract/db-rows";
import { createDueGate, dueInOf } from "../../contract/db/due-gate";

/** A job's work. Throwing retries it with backoff; returning ends it. */
export type JobHandler = (deps: Deps, payload: Record<string, unknown>, attempt: number) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

type Tx = Pick<Db, "insert">;

/** Queues work in the same transaction as the change that causes it, when given one. */
export async function enqueue(db: Tx, kind: string, payload: Record<string, unknown>, runAt: Date = new Date()) {
  await db.insert(jobs).values({ kind, payload, runAt });
}

export async function enqueueMany(db: Tx, rows: { kind: string; payload: Record<string, unknown>; runAt?: Date }[]) {
  if (rows.length) await db.insert(jobs).values(rows.map((r) => ({ ...r, runAt: r.runAt ?? new Date() })));
}

const LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 8;

type ClaimedJob = { id: number; kind: string; payload: Record<string, unknown>; attempts: number };

/**
 * Claims due jobs with FOR UPDATE SKIP LOCKED and a lease, so several workers (or a
 * restarted one) never run the same job twice at once, and a crashed worker's jobs
 * come back when the lease ends.
 */
async function claim(db: Db, limit: number): Promise<ClaimedJob[]> {
  const result = await db.execute(sql`
    update jobs set locked_until = now() + (${LEASE_MS} * interval '1 millisecond'), attempts = attempts + 1
    where id in (
      select id from jobs
      where run_at <= now() and (locked_until is null or locked_until < now())
      order by run_at, id
      limit ${limit}
      for update skip locked
    )
    returning id, kind, payload, attempts`);
  const rows = rowsOf<ClaimedJob>(result);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * How long until the next job is due (ms, zero or less: now), null when the queue is empty: the claim's
 * condition read without writing, so an idle worker's look changes nothing (the due gate,
 * contract/db/due-gate.ts). An unlocked job is due at its run_at (the partial index), a locked
 * one once its lease has run out too.
 */
async function nextDue(db: Db): Promise<number | null> {
  const result = await db.execute(sql`
    select (extract(epoch from least(
      (select min(run_at) from jobs where locked_until is null),
      (select min(greatest(run_at, locked_until)) from jobs where locked_until is not null)
    ) - now()) * 1000)::float8 as in_ms`);
  return dueInOf(rowsOf<{ in_ms: unknown }>(result));
}

async function finish(db: Db, id: number) {
  await db.execute(sql`delete from jobs where id = ${id}`);
}

async function retry(db: Db, job: ClaimedJob, error: unknown) {
  // Stored and logged: what failed, never the values (a failed query's message lists its parameters).
  const message = safeErrorSummary(error);
  if (job.attempts >= MAX_ATTEMPTS) {
    console.error(`[service] job ${job.kind} #${job.id} gave up after ${job.attempts} attempts: ${message}`);
    await finish(db, job.id);
    return;
  }
  const delay = Math.min(60_000, 250 * 2 ** job.attempts);
  await db.execute(sql`update jobs set locked_until = null, last_error = ${message},
    run_at = now() + (${delay} * interval '1 millisecond') where id = ${job.id}`);
}

export type Worker = { kick: () => void; stop: () => Promise<void>; idle: () => Promise<void> };

/**
 * Runs up to `concurrency` jobs at once, as a pool rather than in rounds: a slot that frees
 * is filled again without waiting for the others, so one slow job (a webhook endpoint that
 * answers only at its timeout, a DNS lookup) never holds back the sends queued behind it.
 * Slots are claimed in groups once half of them are free, which keeps the claim queries few.
 */
export function startWorker(deps: Deps, handlers: JobHandlers, opts: { concurrency?: number; watched?: boolean } = {}): Worker {
  const concurrency = opts.concurrency ?? 16;
  // `watched`: every write to the database passes this process (its own PGlite), so between
  // two writes the worker's poll asks nothing of it (contract/db/due-gate.ts).
  const gate = createDueGate(() => opts.watched ?? false, () => nextDue(deps.db));
  const refillBelow = Math.max(1, Math.floor(concurrency / 2));
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;
  const inFlight = new Set<Promise<void>>();

  async function run(job: ClaimedJob) {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
      await handler(deps, job.payload, job.attempts);
      await finish(deps.db, job.id);
    } catch (error) {
      await retry(deps.db, job, error).catch((e) => console.error(`[service] retry bookkeeping failed: ${safeErrorSummary(e)}`));
    }
  }

  function launch(job: ClaimedJob) {
    const running: Promise<void> = run(job).finally(() => {
      inFlight.delete(running);
      if (inFlight.size <= refillBelow) tick();
    });
    inFlight.add(running);
  }

  async function fill() {
    do {
      again = false;
      try {
        if (inFlight.size >= concurrency || !(await gate.due())) continue;
        while (!stopped && inFlight.size < concurrency) {
          const wanted = concurrency - inFlight.size;
          const claimed = await claim(deps.db, wanted);
          for (const job of claimed) launch(job);
          if (claimed.length < wanted) break;
          // In-process PGlite resolves without touching the event loop; yield so HTTP keeps flowing.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        if (!stopped) console.error(`[service] worker poll failed: ${safeErrorSummary(error)}`);
      }
    } while (again && !stopped);
  }

  function tick() {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = fill().finally(() => {
      claiming = null;
      schedule();
    });
  }

  function schedule() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, deps.config.SERVICE_WORKER_POLL_MS);
  }

  /** Until no claim is under way and no job runs (a finishing job may claim the next ones). */
  async function settled() {
    while (claiming || inFlight.size > 0) {
      await claiming;
      await Promise.all([...inFlight]);
    }
  }

  schedule();
  return {
    kick: () => {
      gate.wake();
      setImmediate(tick);
    },
    idle: settled,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await settled();
    },
  };
}
