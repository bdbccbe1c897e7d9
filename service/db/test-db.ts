import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { pgliteTemplateDir } from "../../contract/db/pglite-template";
import { spareOrNew } from "../../contract/db/pglite-spares";
import { openDatabase, type Database, type Db } from "./client";
import { watchWrites } from "../../contract/db/write-epoch";
import * as schema from "./schema";

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * A fresh database for one test file: in-memory PGlite, or a new database on the
 * Postgres server named by TEST_DATABASE_URL (so the Postgres path is tested too).
 * `dataDir` asks for an on-disk PGlite, for restart tests.
 *
 * The in-memory one starts from a migrated copy (an image of its files, made once per set of
 * migrations by Vitest's global setup, lib/test/pglite-template-setup.ts) instead of an
 * initdb and the migrations each time: about 3.5 s of CPU each, against 0.6 s. A file after
 * another in the same process gets the one that file gave back, emptied (contract/db/pglite-spares.ts).
 */
export async function openTestDatabase(opts: { dataDir?: string; name?: string } = {}): Promise<Database & { url?: string }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin && !opts.dataDir && existsSync(imageFile())) {
    // The spare an earlier file of this process gave back, emptied (contract/db/pglite-spares.ts), or one from the image.
    const { value, release } = await spareOrNew("service", async () => {
      const database = await openFromImage();
      const pg = (database.db as unknown as { $client: PGlite }).$client;
      const { drizzle } = await import("drizzle-orm/pglite");
      return { pg, view: (client: PGlite) => ({ ...database, db: drizzle(client, { schema }) as unknown as Db }) };
    });
    return { ...value, close: release };
  }
  if (!admin) return openFromImage(opts.dataDir);
  const { default: postgres } = await import("postgres");
  const name = opts.name ?? `svc_test_${randomBytes(6).toString("hex")}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  const exists = await sql`select 1 from pg_database where datname = ${name}`;
  if (exists.length === 0) await sql.unsafe(`create database "${name}"`);
  await sql.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return { ...database, url: url.toString() };
}

/** The migrated image's file: beside the dashboard's PGlite template (named after PGlite's version), and after the migrations. */
function imageFile(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort()) {
    hash.update(path.relative(migrationsFolder, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return `${pgliteTemplateDir()}-service-${hash.digest("hex").slice(0, 12)}.tar`;
}

/** Makes the migrated image unless it is there (written beside it and renamed into place). */
export async function ensureServiceImage(): Promise<void> {
  const file = imageFile();
  if (existsSync(file)) return;
  const database = await openDatabase({ dataDir: null });
  const client = (database.db as unknown as { $client: import("@electric-sql/pglite").PGlite }).$client;
  const image = await client.dumpDataDir("none");
  await database.close();
  await mkdir(path.dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(scratch, new Uint8Array(await image.arrayBuffer()));
  await rename(scratch, file);
}

/**
 * PGlite from the migrated image when there is one (the migrator then finds nothing to do):
 * in memory, or unpacked into `dataDir` when that holds no database yet (a restart test's
 * first life; its next opens the files as they were left). Without an image, or on a
 * directory that holds one, the service's own open.
 */
async function openFromImage(dataDir?: string): Promise<Database> {
  const file = imageFile();
  if (!existsSync(file) || (dataDir && existsSync(path.join(dataDir, "PG_VERSION")))) return openDatabase({ dataDir: dataDir ?? null });
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const loadDataDir = new Blob([readFileSync(file)]);
  const client = dataDir ? new PGlite(dataDir, { loadDataDir }) : new PGlite({ loadDataDir });
  watchWrites(client);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close(), kind: "pglite" };
}
