import { sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import type { Db } from "@/lib/server/db";

/**
 * Test-only: every table of the dashboard's database whose rows hold one of `forms` as text,
 * in any case, with how many rows: the whole database, not a list of the places a change
 * thought of (an erasure's tests ask it for the erased address).
 */
export async function tablesNaming(d: Db, forms: string[]): Promise<Record<string, number>> {
  const tables = rowsOf<{ name: string }>(await d.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = rowsOf<{ n: number }>(
      await d.execute(sql`select count(*)::int as n from ${sql.identifier(name)} t where ${sql.join(forms.map((f) => sql`strpos(lower(t::text), ${f.toLowerCase()}) > 0`), sql` or `)}`),
    );
    if (row!.n > 0) found[name] = row!.n;
  }
  return found;
}
