import type { PGlite } from "@electric-sql/pglite";

/**
 * In-memory test databases handed from one test file to the next file of the same Vitest
 * worker (the files share their process, vitest.config.ts), emptied back to the state they were
 * opened in: a few milliseconds of TRUNCATE instead of a new PGlite from the migrated image for
 * each file (WebAssembly instantiation, the image's unpacking, Postgres's start, the migrator's
 * check, and collecting the last one's memory). The whole
 * PGlite pass (`npx vitest run`, nothing beside it, this 2-core machine, one run each): 177 s
 * and 290 CPU-s, against 282 s and 501 CPU-s with a new database per file.
 *
 * Given back, a database is kept only if nothing but its rows changed: its schema (relations,
 * columns and their defaults, functions, triggers, constraints, types, enum values, roles,
 * extensions) must read exactly as when it was opened, and the PGlite object must have the
 * methods it had (a test that wrapped one and did not put it back leaves a database nobody
 * reuses). Anything else, or any error while emptying it, closes it: the next file opens a new
 * one, as before. Session state (settings, prepared statements, temporary tables, advisory
 * locks, LISTEN) goes with DISCARD ALL.
 */

/** How one database was when opened: what giving it back returns it to. */
interface Baseline {
  schema: string;
  methods: Map<string, unknown>;
  tables: string[];
  /** Rows the migrations wrote (by table), put back after the truncation. */
  rows: Map<string, string>;
  sequences: { name: string; last: string | null; start: string }[];
}

interface Spare<T> {
  pg: PGlite;
  /** What a file is given, made over its own revocable view of `pg`. */
  view: (client: PGlite) => T;
  baseline: Baseline;
}

// On globalThis under a key the per-file setup leaves alone (lib/test/as-if-own-process.ts
// clears the dashboard's own holders); one spare per kind of database and process.
const KEY = Symbol.for("mail-test.pglite-spares");
const spares = ((globalThis as { [KEY]?: Map<string, Spare<unknown>> })[KEY] ??= new Map());

/** A reset that does not finish in this time (a transaction a test left waiting) gives the database up. */
const RESET_LIMIT_MS = 10_000;

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

/** One text for everything in the database but its rows. */
const SCHEMA_QUERY = `
  select md5(coalesce(string_agg(item, E'\\n' order by item), '')) as schema from (
    select concat_ws(' ', 'class', n.nspname, c.relname, c.relkind, c.oid) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select concat_ws(' ', 'column', a.attrelid, a.attname, a.atttypid, a.attnotnull, a.attisdropped, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attnum > 0 and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select concat_ws(' ', 'function', p.oid, md5(p.prosrc)) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_SCHEMAS}
    union all select concat_ws(' ', 'trigger', oid, tgenabled) from pg_trigger
    union all select concat_ws(' ', 'constraint', oid, conname) from pg_constraint
    union all select concat_ws(' ', 'type', t.oid) from pg_type t join pg_namespace n on n.oid = t.typnamespace where ${USER_SCHEMAS}
    union all select concat_ws(' ', 'enum', oid, enumlabel) from pg_enum
    union all select concat_ws(' ', 'rule', oid) from pg_rewrite
    union all select concat_ws(' ', 'policy', oid) from pg_policy
    union all select concat_ws(' ', 'extension', extname, extversion) from pg_extension
    union all select concat_ws(' ', 'namespace', nspname) from pg_namespace
    union all select concat_ws(' ', 'role', rolname, rolsuper) from pg_roles
    union all select concat_ws(' ', 'database', datname) from pg_database
    union all select concat_ws(' ', 'setting', setdatabase, setrole, setconfig) from pg_db_role_setting
  ) items (item)`;

async function schemaOf(pg: PGlite): Promise<string> {
  return (await pg.query<{ schema: string }>(SCHEMA_QUERY)).rows[0].schema;
}

function methodsOf(pg: PGlite): Map<string, unknown> {
  const methods = new Map<string, unknown>();
  for (let o: object | null = pg; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (methods.has(name)) continue;
      const value = Object.getOwnPropertyDescriptor(o, name)?.value;
      if (typeof value === "function") methods.set(name, value);
    }
  }
  return methods;
}

async function baselineOf(pg: PGlite): Promise<Baseline> {
  const tables = (
    await pg.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and ${USER_SCHEMAS} order by 1`,
    )
  ).rows.map((r) => r.name);
  const rows = new Map<string, string>();
  for (const table of tables) {
    const [{ json }] = (await pg.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`)).rows;
    if (json !== null) rows.set(table, json);
  }
  const sequences = (
    await pg.query<{ name: string; last: string | null; start: string }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value::text as last, start_value::text as start from pg_sequences`,
    )
  ).rows;
  return { schema: await schemaOf(pg), methods: methodsOf(pg), tables, rows, sequences };
}

/** Returns the database to its baseline; false when it cannot be (then it is not reused). */
async function reset(pg: PGlite, baseline: Baseline): Promise<boolean> {
  if (pg.closed) return false;
  const methods = methodsOf(pg);
  if (methods.size !== baseline.methods.size || [...baseline.methods].some(([name, fn]) => methods.get(name) !== fn)) return false;
  // A transaction a failed test left open ends here; then the session's own state goes.
  // (Two queries: several statements in one run as one transaction, which DISCARD ALL refuses.)
  await pg.exec("rollback");
  await pg.exec("discard all");
  if ((await schemaOf(pg)) !== baseline.schema) return false;
  // As a replica: no trigger runs (the truncation and the migrations' rows put back are not new writes), no foreign key is checked.
  await pg.transaction(async (tx) => {
    await tx.exec("set local session_replication_role = replica");
    if (baseline.tables.length > 0) await tx.exec(`truncate ${baseline.tables.join(", ")} restart identity`);
    for (const [table, json] of baseline.rows) await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [json]);
    for (const s of baseline.sequences) {
      await tx.query(`select setval($1::regclass, $2::bigint, $3)`, [s.name, s.last ?? s.start, s.last !== null]);
    }
  });
  return true;
}

/**
 * The file's own view of the database: the same PGlite, whose methods stop working once the
 * file has given it back, so a timer or a server the file left running cannot write into the
 * next file's rows (before spares, it met a closed database). Methods read through it keep
 * their identity, so a test that wraps one and puts back what it read leaves the database as
 * it found it.
 */
function revocable(pg: PGlite): { client: PGlite; revoke: () => void } {
  let revoked = false;
  const bound = new WeakMap<object, unknown>();
  const unbound = new WeakMap<object, unknown>();
  const client = new Proxy(pg, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (revoked) {
        return () => {
          throw new Error(`this test database was given back at the end of its file (PGlite.${String(name)}, contract/db/pglite-spares.ts)`);
        };
      }
      if (!bound.has(value)) {
        const fn = value.bind(target);
        bound.set(value, fn);
        unbound.set(fn, value);
      }
      return bound.get(value);
    },
    set(target, name, value: unknown) {
      return Reflect.set(target, name, typeof value === "function" && unbound.has(value) ? unbound.get(value) : value, target);
    },
  });
  return { client, revoke: () => void (revoked = true) };
}

/**
 * A database of `kind` for one test file: the spare this process kept, emptied, or a new one
 * from `open` (the PGlite, and how to make what the file gets over a client of it). `release`
 * gives it back for the next file (or closes it, see above).
 */
export async function spareOrNew<T>(kind: string, open: () => Promise<{ pg: PGlite; view: (client: PGlite) => T }>): Promise<{ value: T; release: () => Promise<void> }> {
  const kept = spares.get(kind) as Spare<T> | undefined;
  spares.delete(kind);
  let spare: Spare<T>;
  if (kept) spare = kept;
  else {
    const { pg, view } = await open();
    spare = { pg, view, baseline: await baselineOf(pg) };
  }
  const { client, revoke } = revocable(spare.pg);
  let released = false;
  return {
    value: spare.view(client),
    release: async () => {
      if (released) return;
      released = true;
      revoke();
      const outcome = await Promise.race([
        reset(spare.pg, spare.baseline).then((reusable) => (reusable ? "reusable" : "not reusable")).catch(() => "not reusable"),
        new Promise<"stuck">((resolve) => setTimeout(resolve, RESET_LIMIT_MS, "stuck").unref()),
      ]);
      if (outcome === "reusable" && !spares.has(kind)) spares.set(kind, spare);
      // A stuck one is left to close when it can: waiting would stall the file's teardown.
      else if (outcome === "stuck") void spare.pg.close().catch(() => {});
      else if (!spare.pg.closed) await spare.pg.close().catch(() => {});
    },
  };
}
