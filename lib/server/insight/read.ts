import "server-only";
import { db, type Db } from "@/lib/server/db";
import { markAllOnce } from "./dirty";
import { refreshInsight } from "./refresh";

/**
 * Before a screen or a check reads the figures: the messages indexed before insight existed
 * are marked once per database (a no-op after the first time), and a small backlog of marked
 * messages is refreshed now, so what the screen shows is current. A larger backlog is left to
 * the background refresher rather than making the screen wait.
 */
const BACKFILLED = new WeakSet<Db>();
const CATCH_UP_BATCHES = 4;

export async function catchUpInsight(d?: Db): Promise<void> {
  const database = d ?? (await db());
  if (!BACKFILLED.has(database)) {
    await markAllOnce(database);
    BACKFILLED.add(database);
  }
  await refreshInsight({ maxBatches: CATCH_UP_BATCHES, wait: true }, database);
}
