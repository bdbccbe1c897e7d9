import { scrubLogText } from "./scrub";

/**
 * One line about an unexpected error that is safe to write to a log: what failed and where,
 * never the data it was working on. Shared by the dashboard and the local service (no
 * server-only import).
 *
 * A failed query's error carries its parameters — Drizzle puts them in its message
 * ("params: …"), postgres.js and PGlite in `detail` ("Key (email)=(ada@…)") and some
 * messages quote the value ("invalid input syntax for type uuid: "…""). Logged whole, that
 * printed password hashes, webhook signing secrets, message bodies and recipients. For
 * database errors only the SQLSTATE code, the constraint, table and column names and the
 * tables the query touched are kept; other errors keep their name, a shortened first line
 * and the top of the stack.
 */

const MAX_MESSAGE = 200;
const STACK_FRAMES = 6;

type Fields = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : typeof v === "number" ? String(v) : null);

/** SQLSTATE codes are five characters: digits and capitals (23505, 22P02, 42P01). */
const isSqlState = (v: unknown): v is string => typeof v === "string" && /^[0-9A-Z]{5}$/.test(v);

function isDatabaseError(e: Fields): boolean {
  const name = str(e.name) ?? "";
  return name === "DrizzleQueryError" || name === "PostgresError" || name === "DatabaseError" || isSqlState(e.code) || "query" in e || "params" in e || "parameters" in e;
}

/** Table names a statement reads or writes, from its text (which holds placeholders, not values). */
function tablesOf(query: unknown): string[] {
  if (typeof query !== "string") return [];
  const found = new Set<string>();
  for (const m of query.matchAll(/\b(?:from|into|update|join)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi)) found.add(m[1]);
  return [...found].slice(0, 5);
}

function databasePart(e: Fields): string {
  const parts: string[] = [str(e.name) ?? "DatabaseError"];
  const code = isSqlState(e.code) ? e.code : null;
  if (code) parts.push(`code=${code}`);
  const constraint = str(e.constraint) ?? str(e.constraint_name);
  if (constraint) parts.push(`constraint=${constraint}`);
  const table = str(e.table) ?? str(e.table_name);
  if (table) parts.push(`table=${table}`);
  const column = str(e.column) ?? str(e.column_name);
  if (column) parts.push(`column=${column}`);
  const routine = str(e.routine);
  if (routine) parts.push(`routine=${routine}`);
  const tables = tablesOf(e.query);
  if (tables.length) parts.push(`tables=${tables.join(",")}`);
  return parts.join(" ");
}

function plainPart(e: Fields): string {
  const name = str(e.name) ?? "Error";
  const code = str(e.code);
  const first = scrubLogText((str(e.message) ?? "").split("\n")[0].slice(0, MAX_MESSAGE));
  const frames = (typeof e.stack === "string" ? e.stack.split("\n") : [])
    .map((l) => l.trim())
    .filter((l) => l.startsWith("at "))
    .slice(0, STACK_FRAMES);
  return [`${name}${code ? ` (${code})` : ""}: ${first}`, ...frames.map((f) => `    ${f}`)].join("\n");
}

export function safeErrorSummary(error: unknown): string {
  if (typeof error !== "object" || error === null) return `non-error thrown: ${typeof error}`;
  const chain: Fields[] = [];
  for (let e: unknown = error; typeof e === "object" && e !== null && chain.length < 4; e = (e as Fields).cause) chain.push(e as Fields);
  if (chain.some(isDatabaseError)) {
    // The outer error (Drizzle's) knows the statement; the cause (the driver's) the SQLSTATE.
    const merged: Fields = {};
    for (const e of [...chain].reverse()) {
      for (const key of ["name", "code", "constraint", "constraint_name", "table", "table_name", "column", "column_name", "routine", "query"]) {
        if (e[key] !== undefined && merged[key] === undefined) merged[key] = e[key];
      }
    }
    merged.name = str(chain[0].name) ?? merged.name;
    if (!isSqlState(merged.code)) merged.code = chain.map((e) => e.code).find(isSqlState);
    const frames = typeof chain[0].stack === "string" ? chain[0].stack.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("at ")).slice(0, STACK_FRAMES) : [];
    return [databasePart(merged), ...frames.map((f) => `    ${f}`)].join("\n");
  }
  return plainPart(chain[0]);
}
