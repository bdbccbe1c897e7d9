import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db-rows";
import type { Project } from "@/lib/server/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, openDatabase } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { markInsightDirty } from "./dirty";
import { refreshBatch } from "./refresh";

/**
 * `insight_dirty` is a queue with a row per mark: a message marked twice is refreshed once, and
 * a mark written while the refresher takes the message's marks is neither lost nor kept waiting.
 */
let dispose: () => Promise<void>;
let project: Project;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
});
afterAll(() => dispose());

const marks = async (id: string) =>
  Number(rowsOf<{ n: number | string }>(await (await db()).execute(sql`select count(*) as n from insight_dirty where message_id = ${id}`))[0]!.n);

describe("insight marks", () => {
  it("a message marked twice is taken in one batch with both its marks", async () => {
    const d = await db();
    await d.transaction((tx) => markInsightDirty(tx, project.id, ["twice", "once"]));
    await d.transaction((tx) => markInsightDirty(tx, project.id, ["twice"]));
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
    await markInsightDirty(d, project.id, ["busy"]);
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
        await markInsightDirty(d, project.id, ["busy"]);
      });
    } finally {
      await refresher.close();
    }
    expect(await marks("busy")).toBe(1);
  });
});
