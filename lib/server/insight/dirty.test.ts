import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db, openDatabase } from "@/lib/server/db";
import { markInsightDirty } from "./dirty";
import { refreshBatch } from "./refresh";
import { useTestProject } from "@/lib/test/project-db";

/**
 * `insight_dirty` is a queue with a row per mark: a message marked twice is refreshed once, and
 * a mark written while the refresher takes the message's marks is neither lost nor kept waiting.
 */
const fixture = useTestProject();

const marks = async (id: string) =>
  Number(rowsOf<{ n: number | string }>(await (await db()).execute(sql`select count(*) as n from insight_dirty where message_id = ${id}`))[0]!.n);

describe("insight marks", () => {
  it("a message marked twice is taken in one batch with both its marks", async () => {
    const d = await db();
    await d.transaction((tx) => markInsightDirty(tx, fixture.project.id, ["twice", "once"]));
    await d.transaction((tx) => markInsightDirty(tx, fixture.project.id, ["twice"]));
    expect(await marks("twice")).toBe(2);

    expect(await refreshBatch(500, d)).toBe(3);
    expect(await marks("twice")).toBe(0);
    expect(await marks("once")).toBe(0);
    expect(await refreshBatch(500, d)).toBe(0);
  });

  // Two connections: a second dashboard's, or the refresher's beside the ingest's on Postgres.
  // PGlite has one connection, on which a batch and a writer never interleave.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("a mark written while the refresher takes the message's marks does not wait for it, and outlives it", async () => {
    const d = await db();
    await markInsightDirty(d, fixture.project.id, ["busy"]);
    const [name] = rowsOf<{ name: string }>(await d.execute(sql`select current_database() as name`));
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name!.name}`;
    const refresher = await openDatabase({ url: url.toString() });
    try {
      await refresher.db.transaction(async (tx) => {
        const taken = rowsOf(await tx.execute(sql`delete from insight_dirty where message_id = 'busy' returning message_id`));
        expect(taken).toHaveLength(1);
        // The refresher's batch is still open. With the message id as the table's key this
        // insert waited for that batch to end, which here never comes: the test would hang.
        await markInsightDirty(d, fixture.project.id, ["busy"]);
      });
    } finally {
      await refresher.close();
    }
    expect(await marks("busy")).toBe(1);
  });
});
