import type { CsvMapping } from "@/lib/schemas/batch";
import { address } from "@/lib/schemas/common";
import { splitNamedAddress } from "@/lib/messages/address-text";
import type { CsvRow } from "./csv";

/* The server's half of a CSV file (lib/server/batches/check.ts): rows checked with the shared
 * zod schema, kept out of csv.ts so the screens that parse a file do not load zod. */

export type RowError = { field: string; message: string };
export type MappedRow = { row: number; email: string; name?: string; data: Record<string, string>; errors: RowError[] };

/**
 * Rows → sends, each checked with the shared address schema; errors name the field. A
 * repeated address is flagged on every occurrence after the first, which is the one sent.
 */
export function mapRows(rows: CsvRow[], mapping: CsvMapping): MappedRow[] {
  return rows.map(createRowMapper(mapping));
}

/** mapRows one row at a time (it remembers the addresses seen), for callers that work in slices. */
export function createRowMapper(mapping: CsvMapping): (row: CsvRow) => MappedRow {
  const seen = new Map<string, number>();
  const variables = Object.entries(mapping.variables ?? {});
  return ({ row, values, error }) => {
    const errors: RowError[] = error ? [{ field: "row", message: error }] : [];
    let email = (values[mapping.email] ?? "").trim();
    let name = mapping.name
      ? (values[mapping.name] ?? "").trim()
      : [mapping.firstName, mapping.lastName].map((c) => (c ? (values[c] ?? "").trim() : "")).filter(Boolean).join(" ");
    // `Ada Lovelace <ada@example.com>`, as address books export it.
    const named = splitNamedAddress(email);
    if (named) {
      email = named.email;
      name ||= named.name;
    }

    if (!email) {
      errors.push({ field: "email", message: "is missing" });
    } else {
      const checked = address.safeParse({ email, name: name || undefined });
      if (!checked.success) {
        for (const issue of checked.error.issues) errors.push({ field: String(issue.path[0] ?? "email"), message: issue.message });
      } else {
        const key = email.toLowerCase();
        const first = seen.get(key);
        if (first === undefined) seen.set(key, row);
        else errors.push({ field: "email", message: `repeats row ${first}: the address is sent one message, from row ${first}` });
      }
    }

    const data: Record<string, string> = {};
    for (const [header, variable] of variables) data[variable] = (values[header] ?? "").trim();
    const mapped: MappedRow = { row, email, data, errors };
    if (name) mapped.name = name;
    return mapped;
  };
}
