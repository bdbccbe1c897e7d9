/**
 * The rows of a raw `db.execute(sql…)`: postgres-js returns an array, PGlite `{ rows }`.
 * Shared by the dashboard and the local service, which both run on either driver.
 */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}
