import { ensureServiceImage } from "@/service/db/test-db";
import { ensureMigratedPglite, ensureMigratedPostgres } from "./migrated-template";

/**
 * Vitest's global setup: the databases every test database is copied from, made once before
 * the files run instead of an initdb and the migrations per file: the migrated PGlite
 * directory (from the empty one, contract/db/pglite-template.ts), and on the Postgres pass
 * a migrated template database (./migrated-template.ts).
 */
export default async function setup(): Promise<void> {
  await ensureMigratedPglite();
  await ensureServiceImage();
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) await ensureMigratedPostgres(serverUrl);
}
