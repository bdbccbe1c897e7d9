import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db-rows";
import { openDatabase } from "./index";

describe("the embedded database (PGlite)", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("creates a new data directory in a child process, so this process never holds initdb's memory", async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), "dash-pglite-")), "nested", "data");
    dirs.push(path.dirname(path.dirname(dir)));
    const before = process.memoryUsage().rss;
    const handle = await openDatabase({ dataDir: dir });
    // Opened in this process, initdb grows it by about 700 MB for good; opening an existing
    // directory and migrating it costs about 200.
    const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
    try {
      expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
      expect(grown).toBeLessThan(400);
      const [row] = rowsOf<{ shared_buffers: string }>(await handle.db.execute(sql`show shared_buffers`));
      expect(row.shared_buffers).toBe("16MB");
      await handle.db.execute(sql`create table kept (v text)`);
      await handle.db.execute(sql`insert into kept values ('still here')`);
    } finally {
      await handle.close();
    }
    const again = await openDatabase({ dataDir: dir });
    try {
      expect(rowsOf<{ v: string }>(await again.db.execute(sql`select v from kept`))).toEqual([{ v: "still here" }]);
    } finally {
      await again.close();
    }
  });
});
