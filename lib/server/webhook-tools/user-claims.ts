import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { db, type Db } from "@/lib/server/db";
import type { AppError } from "@/lib/errors";

/**
 * One piece of work of a kind at a time per user, and at most `perWindow` started in any
 * `windowMs`, across every dashboard instance on the database (user_work_claims): limits kept
 * in one process's memory let a user behind a load balancer run one per instance. The claim
 * is one statement — an upsert whose condition sees the row locked, so two instances claiming
 * at once cannot both pass — before the work starts; the release clears `running_until`. A
 * claim whose instance died runs out after `leaseMs` (make it longer than the work can take).
 * A refused try is not counted in the window.
 */
export type UserLimit = { kind: string; perWindow: number; windowMs: number; leaseMs: number };
export type ClaimRefusal = { running: boolean; retryAfterS: number };

const ms = (n: number) => sql`(${String(Math.round(n))}::int * interval '1 millisecond')`;

/** Claims one run for `userId`: null when claimed, else why not and when to come back. */
export async function claimUserWork(limit: UserLimit, userId: string, d?: Db): Promise<ClaimRefusal | null> {
  const handle = d ?? (await db());
  const since = sql`now() - ${ms(limit.windowMs)}`;
  const claimed = rowsOf(
    await handle.execute(sql`
      insert into user_work_claims as c (kind, user_id, running_until, recent)
      values (${limit.kind}, ${userId}, now() + ${ms(limit.leaseMs)}, array[now()])
      on conflict (kind, user_id) do update set
        running_until = excluded.running_until,
        recent = array(select t from unnest(c.recent) as t where t > ${since} order by t) || now()
      where (c.running_until is null or c.running_until <= now())
        and cardinality(array(select t from unnest(c.recent) as t where t > ${since})) < ${limit.perWindow}
      returning 1 as ok`),
  );
  if (claimed.length > 0) return null;
  // Refused: say why, from the row as it is now (a release meanwhile only makes the wait shorter).
  const [row] = rowsOf<{ running: boolean; wait_ms: number | string | null }>(
    await handle.execute(sql`
      select coalesce(running_until > now(), false) as running,
             extract(epoch from (select min(t) from unnest(recent) as t where t > ${since}) + ${ms(limit.windowMs)} - now()) * 1000 as wait_ms
        from user_work_claims where kind = ${limit.kind} and user_id = ${userId}`),
  );
  const running = Boolean(row?.running);
  return { running, retryAfterS: running ? 2 : Math.max(1, Math.ceil(Number(row?.wait_ms ?? 1000) / 1000)) };
}

/** Ends the user's run of this kind. */
export async function releaseUserWork(limit: UserLimit, userId: string, d?: Db): Promise<void> {
  await (d ?? (await db())).execute(sql`update user_work_claims set running_until = null where kind = ${limit.kind} and user_id = ${userId}`);
}

/** `work` under the limit, or `refuse`'s error (a 429 with Retry-After) before it starts. */
export function sharedUserLimit(limit: UserLimit, refuse: (why: ClaimRefusal) => AppError) {
  return async <T>(userId: string, work: () => Promise<T>): Promise<T> => {
    const refusal = await claimUserWork(limit, userId);
    if (refusal) throw refuse(refusal);
    try {
      return await work();
    } finally {
      await releaseUserWork(limit, userId).catch(() => {});
    }
  };
}
