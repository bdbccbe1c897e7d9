import Papa from "papaparse";
import { EMAIL_PATTERN } from "@/lib/schemas/patterns";

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

/** How many records the header and the column count are judged on. */
const PREVIEW_RECORDS = 50;

/**
 * Records (as Papa returns them, in file order) → the rows of a ParsedCsv. Fed all at once
 * by parseCsv, or a slice at a time by parseCsvInSlices, with the same result either way.
 */
export class CsvAssembler {
  private pending: string[][] = [];
  private pendingFrom = 0;
  private seen = 0;
  private first = -1;
  private headers: string[] | null = null;
  private hasHeader = false;
  private readonly quoteErrors = new Map<number, string>();
  private rows: CsvRow[] = [];
  private taken = 0;

  constructor(private readonly options: ParseOptions = {}) {}

  /** `quoteErrorRows`: record numbers (0-based, whole file) whose quotes are not closed. */
  add(records: string[][], quoteErrorRows: number[] = []): void {
    for (const r of quoteErrorRows) this.quoteErrors.set(r, "a quoted value is not closed: check the quotation marks in this row");
    if (this.headers === null) {
      if (!this.pending.length) this.pendingFrom = this.seen;
      this.pending.push(...records);
      this.seen += records.length;
      if (this.first < 0) {
        const at = this.pending.findIndex((r) => !isBlank(r));
        if (at >= 0) this.first = this.pendingFrom + at;
      }
      // Enough records to judge the header and the width: settle them, then go on row by row.
      if (this.first >= 0 && this.seen >= this.first + PREVIEW_RECORDS) this.settle();
      return;
    }
    const from = this.seen;
    this.seen += records.length;
    records.forEach((record, i) => this.row(record, from + i));
  }

  private settle(): void {
    const records = this.pending;
    const offset = this.pendingFrom;
    this.pending = [];
    if (this.first < 0) {
      this.headers = [];
      return;
    }
    const firstRecord = records[this.first - offset];
    const option = this.options.header ?? "auto";
    this.hasHeader = option === "auto" ? !firstRecord.some((v) => EMAIL_PATTERN.test(v.trim())) : option;
    const preview = records.slice(this.first - offset, this.first - offset + PREVIEW_RECORDS);
    const width = Math.max(...preview.map((r) => r.length));
    this.headers = this.hasHeader ? cleanHeaders(firstRecord) : Array.from({ length: width }, (_, i) => `column ${i + 1}`);
    records.forEach((record, i) => this.row(record, offset + i));
  }

  private row(record: string[], index: number): void {
    const headers = this.headers!;
    if (index < this.first || (this.hasHeader && index === this.first) || isBlank(record)) return;
    const values: Record<string, string> = {};
    headers.forEach((header, c) => {
      values[header] = record[c] ?? "";
    });
    const extra = record.slice(headers.length).filter((v) => v.trim() !== "");
    const error =
      this.quoteErrors.get(index) ??
      (extra.length ? `has ${record.length} values but the header has ${headers.length} columns: check for an unquoted delimiter` : undefined);
    this.rows.push(error ? { row: index + 1, values, error } : { row: index + 1, values });
  }

  /** Rows found so far, taken or not (for a row cap checked while parsing). */
  get rowCount(): number {
    return this.taken + this.rows.length + this.pending.filter((r) => !isBlank(r)).length;
  }

  /** The column names, once the first records settled them (null before). */
  get columns(): string[] | null {
    return this.headers;
  }

  /**
   * The rows assembled since the last take, handed over and forgotten: a caller working
   * through a large file holds one slice of rows at a time, never the whole file's.
   */
  take(): CsvRow[] {
    const rows = this.rows;
    this.rows = [];
    this.taken += rows.length;
    return rows;
  }

  finish(delimiter: string): ParsedCsv {
    if (this.headers === null) this.settle();
    if (this.first < 0) return { headers: [], rows: [], delimiter, hasHeader: false };
    return { headers: this.headers!, rows: this.rows, delimiter, hasHeader: this.hasHeader };
  }
}

/** Enough of a file to judge its format on (PREVIEW_RECORDS records of up to 1 KB). */
export const FORMAT_HEAD_CHARS = 64 * 1024;

/**
 * At most the file's first FORMAT_HEAD_CHARS characters, cut where a record ends. Papa's line-break
 * guess splits the first megabyte of what it is given into lines whatever the preview: on a
 * whole 100,000-row file that was one uninterrupted stretch of 60-300 ms, every other request
 * of the server waiting behind it.
 */
function fileHead(input: string): string {
  if (input.length <= FORMAT_HEAD_CHARS) return input;
  const within = FORMAT_HEAD_CHARS - 1;
  const lastBreak = Math.max(input.lastIndexOf("\n", within), input.lastIndexOf("\r", within));
  if (lastBreak > 0) {
    // A "\r\n" the limit falls in is left out whole: the head ends where that record does.
    const splitsCrLf = input[lastBreak] === "\r" && input[lastBreak + 1] === "\n";
    return input.slice(0, splitsCrLf ? lastBreak : lastBreak + 1);
  }
  // A first line longer than the head: up to its end, so the line break is still seen.
  const firstBreak = /\r\n?|\n/.exec(input.slice(FORMAT_HEAD_CHARS));
  return firstBreak ? input.slice(0, FORMAT_HEAD_CHARS + firstBreak.index + firstBreak[0].length) : input;
}

/**
 * The delimiter (Papa detects , ; tab | and the ASCII separators) and the line break. Its
 * delimiter guess counts blank lines (a trailing newline defeats ";"), so it is made on a
 * preview without them; the real parse keeps them, so that the numbering stays the file's.
 * The line break is fixed here too, so a parse in slices cannot guess it per slice.
 */
export function detectFormat(input: string): { delimiter: string; newline: "\r" | "\n" | "\r\n" } {
  const { delimiter, linebreak } = Papa.parse<string[]>(fileHead(input), { preview: PREVIEW_RECORDS, skipEmptyLines: "greedy" }).meta;
  return { delimiter, newline: linebreak as "\r" | "\n" | "\r\n" };
}

export function parseCsv(text: string, options: ParseOptions = {}): ParsedCsv {
  const input = text.replace(/^\ufeff/, "");
  const result = Papa.parse<string[]>(input, { header: false, skipEmptyLines: false, ...detectFormat(input) });
  const assembler = new CsvAssembler(options);
  // Quote errors point at a record; field-count checks are ours (Papa only makes them in header mode).
  const quoteRows = result.errors.filter((e) => e.type === "Quotes" && e.row !== undefined).map((e) => e.row as number);
  assembler.add(result.data, quoteRows);
  return assembler.finish(result.meta.delimiter);
}
