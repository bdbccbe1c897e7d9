import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { hasMigratedPglite, hasMigratedPostgres, migratedPgliteBlob, migratedPostgresName } from "@/lib/test/migrated-template";
import { spareOrNew } from "@/contract/db/pglite-spares";
import { dropDatabase } from "@/contract/db/drop-database";
import { closeDb, installDb, openDatabase, type Db } from "./index";

/**
 * A fresh, migrated database for one test file, installed as the `db()` singleton:
 * PGlite in memory, or a new database on the server at TEST_DATABASE_URL (each file its own
 * database, so files run in parallel). Call `dispose()` in afterAll. Each starts as a copy of
 * a migrated template when Vitest's global setup made one (lib/test/migrated-template.ts); on
 * PGlite, as the database an earlier file of the same process gave back, emptied to that
 * state (contract/db/pglite-spares.ts).
 */
export async function useTestDb(): Promise<{ dispose: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const { default: postgres } = await import("postgres");
    const name = `dash_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    const template = (await hasMigratedPostgres(admin)) ? ` TEMPLATE ${migratedPostgresName()}` : "";
    await admin.unsafe(`CREATE DATABASE ${name}${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    installDb(await openDatabase({ url: url.toString() }));
    return {
      dispose: async () => {
        await closeDb();
        await dropDatabase(admin, name);
        await admin.end({ timeout: 5 });
      },
    };
  }
  if (hasMigratedPglite()) {
    // The spare database an earlier file of this process gave back, emptied, or one from the image.
    const { value: handle, release } = await spareOrNew("dashboard", async () => {
      const opened = await openDatabase({ image: await migratedPgliteBlob() });
      const pg = (opened.db as unknown as { $client: PGlite }).$client;
      return { pg, view: (client: PGlite) => ({ ...opened, db: drizzle(client) as unknown as Db }) };
    });
    installDb({ ...handle, close: release });
    return { dispose: () => closeDb() };
  }
  // No image (a run without Vitest's global setup): on disk, from the empty template.
  const dir = await mkdtemp(path.join(os.tmpdir(), "dash-db-"));
  installDb(await openDatabase({ dataDir: path.join(dir, "data") }));
  return {
    dispose: async () => {
      await closeDb();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
