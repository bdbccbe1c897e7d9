import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { MIGRATIONS_FOLDER, openDatabase } from "@/lib/server/db";
import { dropDatabase } from "@/contract/db/drop-database";
import { ensurePgliteTemplate, pgliteTemplateDir } from "@/contract/db/pglite-template";

/**
 * Test databases start from an image of one already migrated, made once per set of migrations
 * (Vitest's global setup, ./pglite-template-setup.ts). Opening a new PGlite database and
 * migrating it cost about 2 s of CPU per test file (the extension, then every migration).
 * On PGlite the image is a tar of the migrated data directory (PGlite's dumpDataDir), which
 * each test database unpacks into memory: cheaper than copying the directory's 1,250 files
 * and opening them on disk (about 0.9 s of CPU against 1.9 s), and nothing to delete after.
 * On Postgres the same: `CREATE DATABASE ... TEMPLATE` of a migrated one. `openDatabase`
 * still runs the migrator on every copy (finding nothing to apply), so a test database is
 * what the dashboard's own start makes of it.
 */

/** What a migrated database depends on: the migrations, and the extensions created before them. */
function schemaHash(): string {
  const hash = createHash("sha256");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of [...files(MIGRATIONS_FOLDER), path.join(process.cwd(), "lib", "server", "db", "extensions.ts")].sort()) {
    hash.update(path.relative(process.cwd(), file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 12);
}

/** The migrated PGlite image's file, beside the empty template (node_modules/.cache). */
export function migratedPgliteImage(): string {
  return `${pgliteTemplateDir()}-migrated-${schemaHash()}.tar`;
}

/** The migrated template database's name on the test Postgres server. */
export function migratedPostgresName(): string {
  return `dash_tpl_${schemaHash()}`;
}

/**
 * Makes the migrated PGlite image unless it is there: the empty template copied, opened (which
 * migrates it) and dumped; written beside the file and renamed into place, so a reader never
 * sees half an image and two runs making it at once both end with one.
 */
export async function ensureMigratedPglite(): Promise<void> {
  const target = migratedPgliteImage();
  if (existsSync(target)) return;
  const empty = await ensurePgliteTemplate();
  const scratch = await mkdtemp(`${target}.making-`);
  try {
    const dir = path.join(scratch, "data");
    await cp(empty, dir, { recursive: true });
    const handle = await openDatabase({ dataDir: dir });
    let image: Blob;
    try {
      // Written out first, so the image's files hold every page and loading it replays no WAL.
      await handle.db.execute(sql`checkpoint`);
      image = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    } finally {
      await handle.close();
    }
    await writeFile(path.join(scratch, "image.tar"), new Uint8Array(await image.arrayBuffer()));
    await rename(path.join(scratch, "image.tar"), target);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether the migrated PGlite image is there (Vitest's global setup made it). */
export function hasMigratedPglite(): boolean {
  return existsSync(migratedPgliteImage());
}

/** The migrated PGlite image (see hasMigratedPglite). */
export async function migratedPgliteBlob(): Promise<Blob> {
  return new Blob([await readFile(migratedPgliteImage())]);
}

/**
 * Makes the migrated template database on the server at `serverUrl` unless it is there:
 * migrated under a name of its own, then renamed (a database being copied may have no other
 * connection, so it is never one that is still being migrated). Several runs may share the
 * server (developers' machines): the template is kept for the next run, keyed by the schema.
 */
export async function ensureMigratedPostgres(serverUrl: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const name = migratedPostgresName();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    if ((await admin`select 1 from pg_database where datname = ${name}`).length > 0) return;
    const making = `${name}_making_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database ${making}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${making}`;
      const handle = await openDatabase({ url: url.toString() });
      await handle.close();
      await admin.unsafe(`alter database ${making} rename to ${name}`);
    } catch (e) {
      await dropDatabase(admin, making).catch(() => {});
      // Another run made it meanwhile: theirs is the same.
      if ((await admin`select 1 from pg_database where datname = ${name}`).length === 0) throw e;
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Whether the migrated template database is on the server (made by the global setup). */
export async function hasMigratedPostgres(admin: import("postgres").Sql): Promise<boolean> {
  return (await admin`select 1 from pg_database where datname = ${migratedPostgresName()}`).length > 0;
}
