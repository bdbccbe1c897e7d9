import "server-only";
import { AppError } from "@/lib/errors";
import { createRowMapper } from "@/lib/batch/map-rows";
import type { CsvRow } from "@/lib/batch/csv";
import { mapInSlices, streamCsvRows, TooManyRowsError } from "@/lib/batch/slices";
import { MAX_FILE_ROWS } from "@/lib/schemas/limits";
import { csvMapping, type BatchRowStatus, type CheckSummary } from "@/lib/schemas/batch";
import { batchContent, type BatchContent } from "@/lib/schemas/compose";
import { sendEmailBase, sendEmailRequest, type SendEmail } from "@/lib/schemas/emails";
import { suppressedAddresses } from "./suppressed";

export type CheckedRow = {
  row: number;
  email: string;
  name: string | null;
  data: Record<string, string>;
  status: Extract<BatchRowStatus, "pending" | "invalid" | "suppressed" | "duplicate">;
  error: { message: string; code: string; field: string } | null;
};

/** The parts of a send that come from a row: the recipient and, for a template, its merge data. */
const rowPart = sendEmailBase.pick({ to: true, data: true });

export type { CheckSummary };

/** One row's send: the shared content, the row as the recipient, its merge data for a template. */
export function rowSend(content: BatchContent, row: { email: string; name: string | null; data: Record<string, string> }): SendEmail {
  const to = [{ email: row.email, ...(row.name ? { name: row.name } : {}) }];
  const send: SendEmail = { ...content, to };
  if (content.templateId && Object.keys(row.data).length) send.data = row.data;
  return send;
}

/** The shared content on its own: refused with the field named before any row is looked at. */
export function checkContent(input: unknown): BatchContent {
  const content = batchContent.parse(input);
  const probe = sendEmailRequest.safeParse({ ...content, to: [{ email: "probe@example.com" }] });
  if (!probe.success) {
    const issue = probe.error.issues[0];
    const param = `content.${issue.path.map(String).join(".")}`;
    throw new AppError(400, "validation_error", `${param}: ${issue.message}`, param);
  }
  return content;
}

/** Takes each slice of checked rows as the file is read (stores it, counts it, keeps a few). */
export type CheckedRowSink = (rows: CheckedRow[]) => Promise<void> | void;

/** A kind of job's own check of a row that is otherwise fine: the field and what is wrong, or null. */
export type RowCheck = (row: { email: string; name: string | null; data: Record<string, string> }) => { field: string; message: string } | null;

export type CheckOptions = { maxRows?: number; rowCheck?: RowCheck };

/**
 * The file → rows, each checked before anything is sent: malformed or repeated addresses,
 * rows whose send the wire schema refuses, and addresses on the project's suppression list
 * (read from the service, every page). The same code answers the screen's check and
 * creates the job, so what the user saw is what is sent.
 *
 * At most MAX_FILE_ROWS rows (or `opts.maxRows`), read in slices of 64 KB: each slice's rows are checked and
 * handed to `sink` (awaited) before the next slice is parsed, and then dropped, so memory
 * holds one slice of rows and the set of addresses seen (for repeats), not the whole file.
 * Other requests are answered between slices.
 */
export async function checkFileInSlices(project: string, csv: string, mappingInput: unknown, content: BatchContent | null, sink: CheckedRowSink, opts: CheckOptions = {}): Promise<CheckSummary> {
  const maxRows = opts.maxRows ?? MAX_FILE_ROWS;
  const mapping = csvMapping.parse(mappingInput);
  const summary: CheckSummary = { total: 0, toSend: 0, invalid: 0, suppressed: 0, duplicate: 0 };
  const mapRow = createRowMapper(mapping);
  let suppressed: Map<string, string> | null = null;
  const checkRow = (csvRow: CsvRow): CheckedRow => {
    const m = mapRow(csvRow);
    const base = { row: m.row, email: m.email, name: m.name ?? null, data: m.data };
    if (m.errors.length) {
      const e = m.errors[0];
      const duplicate = e.message.startsWith("repeats row");
      return { ...base, status: duplicate ? "duplicate" : "invalid", error: { message: `${e.field}: ${e.message}`, code: duplicate ? "duplicate" : "invalid_row", field: e.field } };
    }
    const reason = suppressed!.get(m.email.toLowerCase());
    if (reason) return { ...base, status: "suppressed", error: { message: `email: the address is suppressed (${reason})`, code: "suppressed", field: "email" } };
    if (content) {
      // The content was checked once (checkContent); per row only what the row adds is checked,
      // with the same wire schema: a full parse of each of 100,000 sends was most of the garbage.
      const send = rowPart.safeParse(rowSend(content, base));
      if (!send.success) {
        const issue = send.error.issues[0];
        const field = issue.path.map(String).join(".");
        return { ...base, status: "invalid", error: { message: `${field}: ${issue.message}`, code: "invalid_row", field } };
      }
    }
    const own = opts.rowCheck?.(base);
    if (own) return { ...base, status: "invalid", error: { message: `${own.field}: ${own.message}`, code: "invalid_row", field: own.field } };
    return { ...base, status: "pending", error: null };
  };
  try {
    await streamCsvRows(csv, {
      maxRows,
      onRows: async (csvRows, headers) => {
        if (!suppressed) {
          // Asked once the file is known to have rows and the mapped column, as before any row is checked.
          if (!headers.includes(mapping.email)) {
            throw new AppError(400, "validation_error", `mapping.email: the file has no column "${mapping.email}"`, "mapping.email");
          }
          suppressed = await suppressedAddresses(project);
        }
        const rows = await mapInSlices(csvRows, checkRow);
        for (const r of rows) {
          summary.total++;
          if (r.status === "pending") summary.toSend++;
          else summary[r.status]++;
        }
        await sink(rows);
      },
    });
  } catch (e) {
    if (e instanceof TooManyRowsError) {
      throw new AppError(400, "too_many_rows", `csv: the file has more than ${maxRows.toLocaleString("en-US")} rows; split it into smaller files`, "csv");
    }
    throw e;
  }
  if (!summary.total) throw new AppError(400, "validation_error", "csv: the file has no rows", "csv");
  return summary;
}
