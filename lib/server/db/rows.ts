/** The rows of a raw `db.execute(sql…)`: postgres-js returns an array, PGlite `{ rows }`. */
export type RawRow = Record<string, unknown>;

export function rowsOf(result: unknown): RawRow[] {
  if (Array.isArray(result)) return result as RawRow[];
  return ((result as { rows?: RawRow[] }).rows ?? []) as RawRow[];
}
