import "server-only";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { createDueGate, type DueGate } from "@/contract/db/due-gate";
import { env } from "@/lib/server/env";
import { createExtensions } from "./extensions";
import { openPglite } from "./pglite";

/** The dashboard database: PGlite in DASHBOARD_DATA_DIR, or Postgres when DATABASE_URL is set. */
export type Db = PgDatabase<PgQueryResultHKT>;

/**
 * A named lock across every process on the database: a Postgres advisory lock held on a
 * connection of its own, or (PGlite: one process per data directory) a lock in this process.
 * `wait: false` gives up at once when someone else holds it and answers `{ acquired: false }`.
 */
export type Locker = <T>(name: string, fn: () => Promise<T>, opts?: { wait?: boolean }) => Promise<{ acquired: true; value: T } | { acquired: false }>;

type Handle = { db: Db; close: () => Promise<void>; lock: Locker; kind: "postgres" | "pglite" };

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** Advisory lock keys are numbers; names keep call sites readable. Same name, same key, on every instance. */
export const MIGRATION_LOCK = "mail-dashboard:migrate";

/**
 * Opens a database and applies the migrations in drizzle/. Drivers are imported here, not at
 * module load, so `next build` and pages that never touch the database do not load them.
 * On Postgres the migrations run under an advisory lock: instances started together on an
 * empty database would otherwise race on creating the same tables, and all but one fail.
 * `{ image }` opens an in-memory PGlite loaded from a dumped data directory (tests, ./pglite.ts).
 */
export async function openDatabase(
  target: { url: string } | { dataDir: string } | { image: Blob },
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
    const lock: Locker = async (name, fn, opts = {}) => {
      // A session-level lock lives on one connection: reserve one for as long as it is held.
      const conn = await client.reserve();
      try {
        if (opts.wait === false) {
          const [row] = await conn`select pg_try_advisory_lock(hashtext(${name})) as ok`;
          if (!row.ok) return { acquired: false };
        } else {
          await conn`select pg_advisory_lock(hashtext(${name}))`;
        }
        try {
          return { acquired: true, value: await fn() };
        } finally {
          await conn`select pg_advisory_unlock(hashtext(${name}))`;
        }
      } finally {
        conn.release();
      }
    };
    try {
      // Extensions too: "create extension if not exists" races like the tables do.
      await lock(MIGRATION_LOCK, async () => {
        await createExtensions(db as unknown as Db);
        await migrate(db, { migrationsFolder });
      });
    } catch (e) {
      await client.end({ timeout: 1 }).catch(() => {});
      throw e;
    }
    return { db: db as unknown as Db, close: () => client.end({ timeout: 5 }), lock, kind: "postgres" };
  }
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  const client = await openPglite("dataDir" in target ? target.dataDir : target);
  const db = drizzle(client);
  await createExtensions(db as unknown as Db);
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close(), lock: inProcessLocker(), kind: "pglite" };
}

/** One process is the whole deployment on PGlite, so a lock in memory is a lock on the database. */
function inProcessLocker(): Locker {
  const held = new Map<string, Promise<unknown>>();
  return async (name, fn, opts = {}) => {
    while (held.has(name)) {
      if (opts.wait === false) return { acquired: false };
      await held.get(name)!.catch(() => {});
    }
    const run = fn();
    held.set(name, run);
    try {
      return { acquired: true, value: await run };
    } finally {
      held.delete(name);
    }
  };
}

// On globalThis: Next compiles instrumentation and each route into separate bundles that
// share one process, and PGlite allows one instance per data directory.
const KEY = Symbol.for("mail-dashboard.db");
type Holder = { [KEY]?: Promise<Handle> };

function handle(): Promise<Handle> {
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
  return holder[KEY];
}

export function db(): Promise<Db> {
  return handle().then((h) => h.db);
}

/** Runs `fn` holding the named lock of the database (see Locker). */
export async function withDbLock<T>(name: string, fn: () => Promise<T>, opts?: { wait?: boolean }) {
  return (await handle()).lock(name, fn, opts);
}

/** Whether the database is shared by several processes (Postgres) or this process's own (PGlite). */
export async function dbKind(): Promise<Handle["kind"]> {
  return (await handle()).kind;
}

/**
 * A background poller's gate (contract/db/due-gate.ts): on PGlite, which only this process
 * writes, the poller asks the database nothing between two writes until its work falls due.
 */
export function dueGate(probe: (d: Db) => Promise<number | null>): DueGate {
  return createDueGate(async () => (await dbKind()) === "pglite", async () => probe(await db()));
}

/** Installs an already-open database as the singleton (tests); null forgets it. */
export function installDb(h: Handle | null): void {
  const holder = globalThis as Holder;
  if (h) holder[KEY] = Promise.resolve(h);
  else delete holder[KEY];
}

export async function closeDb(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  delete holder[KEY];
  if (current) await (await current).close();
}
