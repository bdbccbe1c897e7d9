import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { openDatabase } from "./index";
import { copyPgliteTemplate, ensurePgliteTemplate, pgliteTemplateDir } from "@/contract/db/pglite-template";

describe("the embedded database (PGlite)", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("makes one empty template per PGlite version, and copies it into a new directory only when that holds nothing", async () => {
    const template = await ensurePgliteTemplate();
    expect(template).toBe(pgliteTemplateDir());
    expect(existsSync(path.join(template, "PG_VERSION"))).toBe(true);
    // Made once: a second call finds it (it would throw on a half-made one).
    expect(await ensurePgliteTemplate()).toBe(template);

    const parent = await mkdtemp(path.join(os.tmpdir(), "dash-pglite-"));
    dirs.push(parent);
    expect(await copyPgliteTemplate(path.join(parent, "fresh"))).toBe(true);
    expect(existsSync(path.join(parent, "fresh", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(parent, "fresh", "base"))).toBe(true);
    // A directory holding other files is not overwritten: initdb judges it.
    await mkdir(path.join(parent, "taken"));
    await writeFile(path.join(parent, "taken", "notes.txt"), "mine");
    expect(await copyPgliteTemplate(path.join(parent, "taken"))).toBe(false);
    expect(await readFile(path.join(parent, "taken", "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(path.join(parent, "taken", "PG_VERSION"))).toBe(false);
    // Nothing is left beside them (the copy is made aside and renamed into place).
    expect((await readdir(parent)).sort()).toEqual(["fresh", "taken"]);
  });

  it("creates a new data directory without running initdb in this process, which would keep its memory", async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), "dash-pglite-")), "nested", "data");
    dirs.push(path.dirname(path.dirname(dir)));
    const before = process.memoryUsage().rss;
    const handle = await openDatabase({ dataDir: dir });
    // Opened in this process, initdb grows it by about 800 MB for good; copying the template
    // (or initdb in a child without one), opening and migrating costs about 200.
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
  it("lets the event loop turn every few milliseconds while a chain of statements runs, not after every statement", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "dash-pglite-"));
    dirs.push(dir);
    const handle = await openDatabase({ dataDir: path.join(dir, "data") });
    try {
      // A timer stands in for a socket's data: both wait for the event loop's next turn. Without
      // a turn between statements, PGlite's synchronous statements resolve one after another
      // through microtasks and the timer fires only after all 200.
      let ran = 0;
      let firedAfter: number | null = null;
      setTimeout(() => (firedAfter = ran), 0);
      // Counts the loop's turns during the chain: a turn after each statement would be 200, and
      // under a flood each turn waits for every socket's data (lib/server/db/pglite.ts).
      let turns = 0;
      let counting = true;
      const countTurn = () => {
        if (!counting) return;
        turns++;
        setImmediate(countTurn);
      };
      setImmediate(countTurn);
      const started = performance.now();
      for (let i = 0; i < 200; i++) {
        await handle.db.execute(sql`select ${i}::int as n`);
        ran++;
      }
      const elapsed = performance.now() - started;
      counting = false;
      expect(firedAfter).not.toBeNull();
      expect(firedAfter!).toBeLessThan(200);
      // One turn per 5 ms of statements, give or take the turns at either end.
      expect(turns).toBeGreaterThanOrEqual(1);
      expect(turns).toBeLessThanOrEqual(Math.ceil(elapsed / 5) + 2);
    } finally {
      await handle.close();
    }
  });
});
