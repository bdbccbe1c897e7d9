import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "./client";

/**
 * A fresh database for one test file: in-memory PGlite, or a new database on the
 * Postgres server named by TEST_DATABASE_URL (so the Postgres path is tested too).
 * `dataDir` asks for an on-disk PGlite, for restart tests.
 */
export async function openTestDatabase(opts: { dataDir?: string; name?: string } = {}): Promise<Database & { url?: string }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return openDatabase({ dataDir: opts.dataDir ?? null });
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
