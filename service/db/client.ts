import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { watchWrites } from "../../contract/db/write-epoch";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; close: () => Promise<void>; kind: "pglite" | "postgres" };

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the service database: PGlite in `dataDir` (created if missing) or Postgres at `url`,
 * and applies the migrations. Called lazily by the server, never at import time.
 * `dataDir` of `null` opens an in-memory PGlite (tests).
 */
export async function openDatabase(opts: { url?: string; dataDir?: string | null }): Promise<Database> {
  if (opts.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const sql = postgres(opts.url, { max: 10, onnotice: () => {} });
    const db = drizzle(sql, { schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, close: () => sql.end(), kind: "postgres" };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  // Every write counted, so the job worker rests between them (contract/db/due-gate.ts).
  watchWrites(client);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close(), kind: "pglite" };
}
