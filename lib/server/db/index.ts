import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/server/env";
import { createExtensions, pgliteExtensions } from "./extensions";

/** The dashboard database: PGlite in DASHBOARD_DATA_DIR, or Postgres when DATABASE_URL is set. */
export type Db = PgDatabase<PgQueryResultHKT>;

type Handle = { db: Db; close: () => Promise<void> };

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/**
 * Opens a database and applies the migrations in drizzle/. Drivers are imported here, not at
 * module load, so `next build` and pages that never touch the database do not load them.
 */
export async function openDatabase(
  target: { url: string } | { dataDir: string },
  migrationsFolder = MIGRATIONS_FOLDER,
): Promise<Handle> {
  if ("url" in target) {
    const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
      import("postgres"),
      import("drizzle-orm/postgres-js"),
      import("drizzle-orm/postgres-js/migrator"),
    ]);
    // `onnotice` silenced: "relation already exists, skipping" notices from migrations are noise.
    const client = postgres(target.url, { max: 10, onnotice: () => {} });
    const db = drizzle(client);
    await createExtensions(db as unknown as Db);
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, close: () => client.end({ timeout: 5 }) };
  }
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  // PGlite does not create its directory.
  await mkdir(target.dataDir, { recursive: true });
  const client = new PGlite(target.dataDir, { extensions: await pgliteExtensions() });
  const db = drizzle(client);
  await createExtensions(db as unknown as Db);
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close() };
}

// On globalThis: Next compiles instrumentation and each route into separate bundles that
// share one process, and PGlite allows one instance per data directory.
const KEY = Symbol.for("mail-dashboard.db");
type Holder = { [KEY]?: Promise<Handle> };

export function db(): Promise<Db> {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const e = env();
    const opening = openDatabase(
      e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: path.resolve(e.DASHBOARD_DATA_DIR) },
    );
    // A failed open is not cached: the next request tries again (e.g. Postgres came up late).
    opening.catch(() => {
      if (holder[KEY] === opening) delete holder[KEY];
    });
    holder[KEY] = opening;
  }
  return holder[KEY].then((h) => h.db);
}

/** Installs an already-open database as the singleton (tests); null forgets it. */
export function installDb(handle: Handle | null): void {
  const holder = globalThis as Holder;
  if (handle) holder[KEY] = Promise.resolve(handle);
  else delete holder[KEY];
}

export async function closeDb(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  delete holder[KEY];
  if (current) await (await current).close();
}
