import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * drizzle-kit generates a migration by comparing the schema with the newest snapshot, and
 * refuses to run when two snapshots name the same parent. Two branches that each generate a
 * migration from the same main leave exactly that behind, and the second snapshot also lacks the
 * first's tables, so the next migration generated would create them again. Each folder's
 * snapshots must form one chain in the journal's order, each holding every table of the one before.
 */
const root = path.resolve(__dirname, "..");

interface Snapshot { id: string; prevId: string; tables: Record<string, unknown> }

function chainOf(folder: string) {
  const journal = JSON.parse(readFileSync(path.join(root, folder, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  return journal.entries.map((entry) => {
    const number = entry.tag.split("_")[0];
    const snapshot = JSON.parse(readFileSync(path.join(root, folder, "meta", `${number}_snapshot.json`), "utf8")) as Snapshot;
    return { tag: entry.tag, idx: entry.idx, snapshot };
  });
}

describe.each(["drizzle", "service/db/migrations"])("the migrations in %s", (folder) => {
  const chain = chainOf(folder);

  it("are numbered in the journal's order, without gaps", () => {
    expect(chain.map((m) => m.idx)).toEqual(chain.map((_, i) => i));
    expect(chain.map((m) => Number(m.tag.split("_")[0]))).toEqual(chain.map((_, i) => i));
  });

  it("have snapshots that follow one another, each holding every table of the one before", () => {
    const breaks: string[] = [];
    chain.forEach((migration, i) => {
      if (i === 0) return;
      const before = chain[i - 1].snapshot;
      if (migration.snapshot.prevId !== before.id) breaks.push(`${migration.tag} follows ${migration.snapshot.prevId}, not ${chain[i - 1].tag}`);
      const lost = Object.keys(before.tables).filter((table) => !(table in migration.snapshot.tables));
      // A migration may drop a table on purpose; then its SQL says so.
      const sql = readFileSync(path.join(root, folder, `${migration.tag}.sql`), "utf8");
      for (const table of lost) {
        if (!sql.includes(`DROP TABLE "${table.split(".").pop()}"`)) breaks.push(`${migration.tag}'s snapshot lacks ${table}`);
      }
    });
    expect(breaks).toEqual([]);
  });
});
