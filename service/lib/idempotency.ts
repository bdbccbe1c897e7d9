import { and, eq, lt, sql } from "drizzle-orm";
import { IDEMPOTENCY_TTL_HOURS } from "../../contract/wire";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { canonicalJson, sha256 } from "./crypto";
import { ServiceError } from "./errors";
import type { Tx } from "./events";

export type Outcome = { status: 200 | 201 | 202 | 207; body: unknown };
/** Stores the outcome under the key, inside the transaction that made the change. */
export type Save = (tx: Tx, outcome: Outcome) => Promise<void>;

const TTL_MS = IDEMPOTENCY_TTL_HOURS * 3600_000;
/** An `in_flight` row this old belongs to a request that died (crash, restart): it may be taken over. */
const ABANDONED_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 60_000;
let lastPrune = 0;

export type IdempotencyScope = { projectId: string; key?: string; method: string; path: string; body: unknown };

/**
 * Runs `work` at most once per (project, Idempotency-Key) for 24 hours.
 *
 * The key's primary key row is the lock: the first request inserts it `in_flight`; a second
 * request fails that insert and answers from the row: the stored outcome when done and the
 * body matches (same operation path and canonical JSON), 409 `idempotency_conflict` when the
 * body differs, 409 `idempotency_in_flight` while the first still runs. `work` must call
 * `save` inside its own transaction, so the change and the stored outcome commit together.
 * A failed `work` (an error answer) releases the key: only successes are replayed.
 */
export async function idempotent(db: Db, scope: IdempotencyScope, work: (save: Save) => Promise<Outcome>): Promise<Outcome & { replayed: boolean }> {
  if (!scope.key) return { ...(await work(async () => {})), replayed: false };
  const { projectId, key } = scope;
  const requestHash = sha256(canonicalJson({ method: scope.method, path: scope.path, body: scope.body }));
  await pruneExpired(db);

  const claimed = await claim(db, projectId, key, requestHash);
  if (!claimed.ok) return { ...claimed.outcome, replayed: true };

  const save: Save = async (tx, outcome) => {
    await tx.update(idempotencyKeys)
      .set({ state: "done", responseStatus: outcome.status, responseBody: outcome.body })
      .where(and(eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key)));
  };
  try {
    return { ...(await work(save)), replayed: false };
  } catch (error) {
    await db.delete(idempotencyKeys).where(and(
      eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "in_flight"),
    ));
    throw error;
  }
}

type Claim = { ok: true } | { ok: false; outcome: Outcome };

const olderThan = (ms: number) => lt(idempotencyKeys.createdAt, sql`now() - (${ms} * interval '1 millisecond')`);

async function claim(db: Db, projectId: string, key: string, requestHash: string): Promise<Claim> {
  const thisKey = and(eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key));
  for (let round = 0; round < 3; round++) {
    const inserted = await db.insert(idempotencyKeys)
      .values({ projectId, key, requestHash, state: "in_flight" })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { ok: true };

    // Ages are judged by the database's clock, the one that wrote created_at.
    const [row] = await db.select({
      requestHash: idempotencyKeys.requestHash,
      state: idempotencyKeys.state,
      expired: sql<boolean>`${idempotencyKeys.createdAt} < now() - (${TTL_MS} * interval '1 millisecond')`,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
    }).from(idempotencyKeys).where(thisKey);
    if (!row) continue; // released between our insert and select: try again
    if (row.expired) {
      // Expired keys are ignored: forget it and claim afresh.
      await db.delete(idempotencyKeys).where(and(thisKey, olderThan(TTL_MS)));
      continue;
    }
    if (row.requestHash !== requestHash) {
      throw new ServiceError(409, "idempotency_conflict",
        "Idempotency-Key: this key was already used with a different request body or operation; use a new key for a new request",
        "Idempotency-Key");
    }
    if (row.state === "in_flight") {
      const taken = await db.update(idempotencyKeys).set({ createdAt: sql`now()` })
        .where(and(thisKey, eq(idempotencyKeys.state, "in_flight"), olderThan(ABANDONED_MS))).returning({ key: idempotencyKeys.key });
      if (taken.length) return { ok: true };
      throw new ServiceError(409, "idempotency_in_flight",
        "Idempotency-Key: a request with this key is still being processed; retry in a moment", "Idempotency-Key",
        { "Retry-After": "1" });
    }
    return { ok: false, outcome: { status: row.responseStatus as Outcome["status"], body: row.responseBody } };
  }
  throw new ServiceError(409, "idempotency_in_flight", "Idempotency-Key: the key is contended; retry in a moment", "Idempotency-Key",
    { "Retry-After": "1" });
}

async function pruneExpired(db: Db) {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  await db.delete(idempotencyKeys).where(olderThan(TTL_MS));
}
