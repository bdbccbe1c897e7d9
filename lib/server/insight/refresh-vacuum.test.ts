import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db } from "@/lib/server/db";
import { markInsightDirty } from "./dirty";
import { refreshInsight, VACUUM_AFTER_CLAIMED } from "./refresh";
import { useTestProject } from "@/lib/test/project-db";

/**
 * A drained backlog leaves `insight_dirty` without its dead pages: otherwise (PGlite has no
 * autovacuum) every later refresh, one per screen read, scans all of them to find nothing.
 */
const fixture = useTestProject();

const vacuums = async () =>
  Number(rowsOf<{ n: number | string }>(await (await db()).execute(sql`select coalesce(vacuum_count, 0) as n from pg_stat_user_tables where relname = 'insight_dirty'`))[0]?.n ?? 0);

const pages = async () =>
  Number(rowsOf<{ pages: number | string }>(await (await db()).execute(sql`select pg_relation_size('insight_dirty') / current_setting('block_size')::int as pages`))[0]!.pages);

it("gives back the queue's pages once a large backlog is drained", async () => {
  const d = await db();
  const ids = Array.from({ length: VACUUM_AFTER_CLAIMED + 2_000 }, (_, i) => `backlog-${i}`);
  await d.transaction((tx) => markInsightDirty(tx, fixture.project.id, ids));
  const before = await pages();
  const vacuumedBefore = await vacuums();
  expect(before).toBeGreaterThan(20);

  expect(await refreshInsight({ batchSize: 2_000 })).toBe(ids.length);
  expect(Number(rowsOf<{ n: number | string }>(await d.execute(sql`select count(*) as n from insight_dirty`))[0]!.n)).toBe(0);
  expect(await vacuums(), "the drained queue was vacuumed").toBe(vacuumedBefore + 1);
  // What the vacuum gives back is certain only on PGlite, alone with its data. On a Postgres
  // server it depends on the other sessions: rows deleted a moment ago stay while a snapshot
  // may still see them, and the file is cut short only if no one holds a lock on the table
  // (in a full run's Postgres pass, files two at a time, the vacuum once gave back nothing).
  if (!process.env.TEST_DATABASE_URL) expect(await pages()).toBeLessThan(before / 10);
});
