import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/**
 * Postgres extensions the dashboard's schema uses, created before the migrations run (the
 * generated migrations cannot create them): `pg_trgm`, whose trigram indexes let the message
 * search find a word anywhere in a subject or sender without reading every row. It ships with
 * Postgres (contrib) and PGlite, and is a trusted extension: the database's owner may create it.
 */
export const EXTENSIONS = ["pg_trgm"] as const;

/** PGlite loads an extension's code only when the instance is created with it. */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}

// The database type spelled out, not imported from ./index: index.ts imports this file.
export async function createExtensions(db: PgDatabase<PgQueryResultHKT>): Promise<void> {
  for (const name of EXTENSIONS) {
    try {
      await db.execute(sql.raw(`create extension if not exists ${name}`));
    } catch (e) {
      // Two instances starting at once on one Postgres can race on "if not exists": the loser
      // fails with a duplicate, and the extension is there all the same.
      const present = rowsOf(await db.execute(sql`select 1 from pg_extension where extname = ${name}`));
      if (present.length === 0) throw new Error(`The database needs the ${name} extension and could not create it (${e instanceof Error ? e.message : String(e)}). Ask its administrator to run: create extension ${name};`);
    }
  }
}
