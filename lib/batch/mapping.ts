import type { CsvMapping } from "@/lib/schemas/batch";
import { EMAIL_PATTERN } from "@/lib/schemas/patterns";
import type { CsvRow } from "@/lib/batch/csv";

/**
 * "Batch from a file", the mapping: which column holds the address, the name, and what the
 * other columns are called as merge variables. Apart from lib/batch/csv.ts so the screens
 * suggest a mapping without loading the CSV parser, which they load when a file arrives.
 */

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
