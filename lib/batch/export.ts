import Papa from "papaparse";
import type { BatchRowOutcome } from "@/lib/schemas/batch";

/**
 * CSV downloads that are safe to open in a spreadsheet. Cells come from recipients' data
 * (names, error messages quoting input), so a cell starting with = + - @ tab or CR would be
 * run as a formula by Excel or LibreOffice: per the OWASP CSV-injection guidance it gets a
 * leading apostrophe, which spreadsheets show as text. Papa's own `escapeFormulae: true`
 * is not used: its pattern (/^[=+\-@\t\r].*$/) misses a value with a line break after the
 * formula, so the pattern is passed explicitly. Papa also quotes an escaped cell. Numbers
 * stay numbers (they cannot be formulas).
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvColumn<T> = { header: string; value: (row: T) => string | number | null | undefined };
export type CsvOptions = {
  /** A UTF-8 byte-order mark, so Excel reads accented names correctly (default: yes). */
  bom?: boolean;
};

/** The neutralised form of one cell, for callers that build CSV some other way. */
export function escapeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[], options: CsvOptions = {}): string {
  const csv = Papa.unparse(
    { fields: columns.map((c) => c.header), data: rows.map((row) => columns.map((c) => c.value(row) ?? "")) },
    { escapeFormulae: FORMULA_START, newline: "\r\n" },
  );
  // Papa ends a header-only file with a line break and a file with rows without one: always end with one.
  return `${options.bom === false ? "" : "\ufeff"}${csv.endsWith("\r\n") ? csv : `${csv}\r\n`}`;
}

const RESULT_COLUMNS: CsvColumn<BatchRowOutcome>[] = [
  { header: "row", value: (r) => r.row },
  { header: "email", value: (r) => r.email },
  { header: "name", value: (r) => r.name },
  { header: "status", value: (r) => r.status },
  { header: "message_id", value: (r) => r.messageId },
  { header: "error_field", value: (r) => r.error?.field },
  { header: "error_code", value: (r) => r.error?.code },
  { header: "error", value: (r) => r.error?.message },
];

/** A batch job's per-row outcomes as the results download. */
export function resultsToCsv(outcomes: readonly BatchRowOutcome[], options: CsvOptions = {}): string {
  return toCsv(outcomes, RESULT_COLUMNS, options);
}
