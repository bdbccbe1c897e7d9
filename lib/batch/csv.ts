import Papa from "papaparse";
import type { CsvMapping } from "@/lib/schemas/batch";
import { address, EMAIL_PATTERN } from "@/lib/schemas/common";

/**
 * "Batch from a file", first half: the file (or pasted rows) → rows → sends, every row
 * checked before anything is sent. Pure and synchronous, so the browser shows the checks as
 * soon as a file is dropped and the server runs the same code when the job is created.
 */

/** One record of the file. `row` is its number as a spreadsheet shows it: the header is row 1. */
export type CsvRow = { row: number; values: Record<string, string>; error?: string };
export type ParsedCsv = { headers: string[]; rows: CsvRow[]; delimiter: string; hasHeader: boolean };
export type ParseOptions = {
  /** Whether the first record names the columns; "auto": yes, unless it holds an email address (pasted rows). */
  header?: boolean | "auto";
};

const isBlank = (record: string[]) => record.every((v) => v.trim() === "");

/** Headers made usable as keys: trimmed, never empty, never repeated. */
function cleanHeaders(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((value, i) => {
    const base = value.replace(/^\ufeff/, "").trim() || `column ${i + 1}`;
    const count = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), count);
    return count > 1 ? `${base} (${count})` : base;
  });
}

export function parseCsv(text: string, options: ParseOptions = {}): ParsedCsv {
  // Papa detects the delimiter among , ; tab | and the ASCII separators and handles quotes,
  // CRLF and a BOM. Its guess counts blank lines (a trailing newline defeats ";"), so the
  // guess is made on a preview without them, and the real parse keeps them, so that the
  // numbering stays the file's.
  const input = text.replace(/^\ufeff/, "");
  const { delimiter } = Papa.parse<string[]>(input, { preview: 50, skipEmptyLines: "greedy" }).meta;
  const result = Papa.parse<string[]>(input, { header: false, skipEmptyLines: false, delimiter });
  const records = result.data;
  const first = records.findIndex((r) => !isBlank(r));
  if (first < 0) return { headers: [], rows: [], delimiter: result.meta.delimiter, hasHeader: false };

  const option = options.header ?? "auto";
  const hasHeader = option === "auto" ? !records[first].some((v) => EMAIL_PATTERN.test(v.trim())) : option;
  const width = Math.max(...records.slice(first, first + 50).map((r) => r.length));
  const headers = hasHeader ? cleanHeaders(records[first]) : Array.from({ length: width }, (_, i) => `column ${i + 1}`);

  // Quote errors point at a record; field-count checks are ours (Papa only makes them in header mode).
  const quoteErrors = new Map<number, string>();
  for (const error of result.errors) {
    if (error.type === "Quotes" && error.row !== undefined) {
      quoteErrors.set(error.row, "a quoted value is not closed: check the quotation marks in this row");
    }
  }

  const rows: CsvRow[] = [];
  for (let i = hasHeader ? first + 1 : first; i < records.length; i++) {
    const record = records[i];
    if (isBlank(record)) continue;
    const values: Record<string, string> = {};
    headers.forEach((header, c) => {
      values[header] = record[c] ?? "";
    });
    const extra = record.slice(headers.length).filter((v) => v.trim() !== "");
    const error =
      quoteErrors.get(i) ??
      (extra.length ? `has ${record.length} values but the header has ${headers.length} columns: check for an unquoted delimiter` : undefined);
    rows.push(error ? { row: i + 1, values, error } : { row: i + 1, values });
  }
  return { headers, rows, delimiter: result.meta.delimiter, hasHeader };
}

/** "E-mail Address" → "emailaddress": headers compared without case, accents, spaces or punctuation. */
const squash = (header: string) =>
  header.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

const EMAIL_HEADERS = new Set(["email", "emailaddress", "emailaddr", "mail", "mailaddress", "recipient", "recipientemail", "to"]);
const NAME_HEADERS = new Set(["name", "fullname", "contactname", "displayname", "recipientname"]);
const FIRST_HEADERS = new Set(["firstname", "first", "givenname", "forename", "fname"]);
const LAST_HEADERS = new Set(["lastname", "last", "surname", "familyname", "lname"]);

/** A header as a merge-variable name: kept when it already is one, otherwise snake_case. */
function variableName(header: string, index: number): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(header)) return header;
  const snake = header
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!snake) return `column_${index + 1}`;
  return /^\d/.test(snake) ? `_${snake}` : snake;
}

export type SuggestedMapping = Omit<CsvMapping, "email"> & { email: string | null; variables: Record<string, string> };
export type SuggestOptions = {
  /** Sample rows: find the email column by its values when no header says so (pasted rows). */
  rows?: CsvRow[];
  /** The template's variables: a column matching one (ignoring case and punctuation) takes its exact name. */
  templateVariables?: string[];
};

export function suggestMapping(headers: string[], options: SuggestOptions = {}): SuggestedMapping {
  const find = (names: Set<string>) => headers.find((h) => names.has(squash(h)));
  let email = find(EMAIL_HEADERS) ?? null;
  if (!email && options.rows?.length) {
    const sample = options.rows.slice(0, 20);
    email = headers.find((h) => sample.filter((r) => EMAIL_PATTERN.test((r.values[h] ?? "").trim())).length > sample.length / 2) ?? null;
  }
  const name = find(NAME_HEADERS);
  const firstName = name ? undefined : find(FIRST_HEADERS);
  const lastName = name ? undefined : find(LAST_HEADERS);

  const mapped = new Set([email, name, firstName, lastName].filter(Boolean));
  const byTemplate = new Map((options.templateVariables ?? []).map((v) => [squash(v), v]));
  const variables: Record<string, string> = {};
  const used = new Set<string>();
  headers.forEach((header, i) => {
    if (mapped.has(header)) return;
    const base = byTemplate.get(squash(header)) ?? variableName(header, i);
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`;
    used.add(candidate);
    variables[header] = candidate;
  });

  const suggestion: SuggestedMapping = { email, variables };
  if (name) suggestion.name = name;
  if (firstName) suggestion.firstName = firstName;
  if (lastName) suggestion.lastName = lastName;
  return suggestion;
}

export type RowError = { field: string; message: string };
export type MappedRow = { row: number; email: string; name?: string; data: Record<string, string>; errors: RowError[] };

/** `Ada Lovelace <ada@example.com>`, as address books export it. */
const NAMED_ADDRESS = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/;

/**
 * Rows → sends, each checked with the shared address schema; errors name the field. A
 * repeated address is flagged on every occurrence after the first, which is the one sent.
 */
export function mapRows(rows: CsvRow[], mapping: CsvMapping): MappedRow[] {
  const seen = new Map<string, number>();
  const variables = Object.entries(mapping.variables ?? {});
  return rows.map(({ row, values, error }) => {
    const errors: RowError[] = error ? [{ field: "row", message: error }] : [];
    let email = (values[mapping.email] ?? "").trim();
    let name = mapping.name
      ? (values[mapping.name] ?? "").trim()
      : [mapping.firstName, mapping.lastName].map((c) => (c ? (values[c] ?? "").trim() : "")).filter(Boolean).join(" ");
    const named = NAMED_ADDRESS.exec(email);
    if (named) {
      email = named[2].trim();
      name ||= named[1].trim();
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
  });
}
