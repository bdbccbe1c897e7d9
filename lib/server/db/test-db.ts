import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { hasMigratedPostgres, migratedPgliteBlob, migratedPostgresName } from "@/lib/test/migrated-template";
import { dropDatabase } from "./drop-database";
import { closeDb, installDb, openDatabase } from "./index";

/**
 * A fresh, migrated database for one test file, installed as the `db()` singleton:
 * PGlite in memory, or a new database on the server at TEST_DATABASE_URL (each file its own
 * database, so files run in parallel). Call `dispose()` in afterAll. Each starts as a copy of
 * a migrated template when Vitest's global setup made one (lib/test/migrated-template.ts).
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
  const image = await migratedPgliteBlob();
  if (image) {
    installDb(await openDatabase({ image }));
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
