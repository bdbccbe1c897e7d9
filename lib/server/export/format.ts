import "server-only";
import Papa from "papaparse";
import { FORMULA_START } from "@/lib/batch/export";
import type { ExportFormat } from "@/lib/schemas/export";
import { EXPORT_STOPPED_CSV, EXPORT_STOPPED_KEY } from "@/lib/schemas/words";

/** One column of an export: its header and how a row gives its cell (a list is joined in CSV, kept a list in NDJSON). */
export type ExportColumn<T> = { header: string; value: (row: T) => string | number | null | undefined | readonly string[] };

const CSV_OPTIONS = { escapeFormulae: FORMULA_START, newline: "\r\n" } as const;

const csvCell = (v: ReturnType<ExportColumn<unknown>["value"]>) => (v == null ? "" : Array.isArray(v) ? v.join(", ") : (v as string | number));

/**
 * The file's start: the CSV header (with a byte-order mark, so Excel reads accents), nothing
 * for NDJSON. Papa quotes and neutralises formulae (lib/batch/export.ts says why its own
 * pattern is passed) — the same rules as every other CSV download of the dashboard.
 */
export function encodeHead<T>(format: ExportFormat, columns: readonly ExportColumn<T>[]): string {
  if (format === "ndjson") return "";
  return `\ufeff${Papa.unparse([columns.map((c) => c.header)], CSV_OPTIONS)}\r\n`;
}

/** A page of rows, each ending with a line break (so the browser counts rows by lines). */
export function encodeRows<T>(format: ExportFormat, columns: readonly ExportColumn<T>[], rows: readonly T[]): string {
  if (!rows.length) return "";
  if (format === "ndjson") {
    let out = "";
    for (const row of rows) out += `${JSON.stringify(Object.fromEntries(columns.map((c) => [c.header, c.value(row) ?? null])))}\n`;
    return out;
  }
  return `${Papa.unparse(
    rows.map((row) => columns.map((c) => csvCell(c.value(row)))),
    CSV_OPTIONS,
  )}\r\n`;
}

/** The limit an export reached before the end of its search: its rows, its time, or its source's pages (README "Limits"). */
export type ExportStop = "rows" | "time" | "pages";

const STOP_TEXT: Record<ExportStop, (limit: number) => string> = {
  rows: (limit) => `it reached its limit of ${limit} rows`,
  time: (limit) => `it ran for its limit of ${Math.round(limit / 60_000)} minutes`,
  pages: (limit) => `it read the ${limit} pages one export may ask the service for`,
};

/**
 * The last line of an export that stopped short: a CSV line starting with "# Export stopped"
 * (one cell, no comma or quote) or an NDJSON object with the key `export_stopped`, so a reader
 * — the Export button, a person, a script — cannot take the file for the whole search.
 */
export function encodeStop(format: ExportFormat, stop: ExportStop, limit: number, rows: number): string {
  const message = `${EXPORT_STOPPED_CSV} after ${rows} rows: ${STOP_TEXT[stop](limit)}. Narrow the search to export the rest.`;
  if (format === "ndjson") return `${JSON.stringify({ [EXPORT_STOPPED_KEY]: stop, limit, rows, message: message.slice(2) })}\n`;
  return `${message}\r\n`;
}
