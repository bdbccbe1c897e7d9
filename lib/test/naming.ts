import { sql } from "drizzle-orm";
import { decodeHTML } from "entities";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";

const TABLES = sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;

/**
 * Test-only: every table of the dashboard's database whose rows hold one of `forms` as text,
 * in any case, with how many rows: the whole database, not a list of the places a change
 * thought of (an erasure's tests ask it for the erased address).
 */
export async function tablesNaming(d: Db, forms: string[]): Promise<Record<string, number>> {
  const tables = rowsOf<{ name: string }>(await d.execute(TABLES));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = rowsOf<{ n: number }>(
      await d.execute(sql`select count(*)::int as n from ${sql.identifier(name)} t where ${sql.join(forms.map((f) => sql`strpos(lower(t::text), ${f.toLowerCase()}) > 0`), sql` or `)}`),
    );
    if (row!.n > 0) found[name] = row!.n;
  }
  return found;
}

/**
 * The same for `address` escaped in any way a reader decodes — HTML character references,
 * percent-encoding, quoted-printable, up to three layers in any order — found by reading every
 * row and decoding it with other code than the dashboard's own (the `entities` library's
 * whole-text decoder, decodeURIComponent, a quoted-printable decoder). Small test databases only.
 */
export async function tablesNamingEscaped(d: Db, address: string): Promise<Record<string, number>> {
  const tables = rowsOf<{ name: string }>(await d.execute(TABLES));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const rows = rowsOf<{ row: string }>(await d.execute(sql`select t::text as row from ${sql.identifier(name)} t`));
    const n = rows.filter((r) => readings(r.row).some((s) => s.toLowerCase().includes(address.toLowerCase()))).length;
    if (n > 0) found[name] = n;
  }
  return found;
}

const percent = (s: string) =>
  s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
  });
const quotedPrintable = (s: string) => s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The text, and what each decoder in turn makes of it, three deep. */
function readings(text: string): string[] {
  let layer = new Set([text]);
  const all = new Set(layer);
  for (let depth = 0; depth < 3; depth++) {
    const next = new Set<string>();
    for (const s of layer) for (const decode of [decodeHTML, percent, quotedPrintable]) next.add(decode(s));
    for (const s of next) all.add(s);
    layer = next;
  }
  return [...all];
}
