import type { CsvMapping } from "@/lib/schemas/batch";
import { parseCsv } from "./csv";
import { suggestMapping } from "./mapping";

/** Enough of a list to find its columns on (at least 64 lines of the 1,000 characters a line may have). */
const HEAD_CHARS = 64 * 1024;

/**
 * Which columns of a list of addresses to suppress hold the address and the reason: a CSV file
 * names them in its header (`email`, or any header the batch mapping knows for it, and
 * `reason`); a pasted list has no header, the address is found by its values and the reason,
 * if any, is the column after it. Null when no column holds addresses.
 */
export function suppressionListMapping(text: string): CsvMapping | null {
  const cut = Math.max(text.lastIndexOf("\n", HEAD_CHARS), text.lastIndexOf("\r", HEAD_CHARS));
  const head = text.length <= HEAD_CHARS || cut < 0 ? text.slice(0, HEAD_CHARS) : text.slice(0, cut);
  const parsed = parseCsv(head);
  const { email } = suggestMapping(parsed.headers, { rows: parsed.rows });
  if (!email) return null;
  const reason = parsed.hasHeader
    ? parsed.headers.find((h) => h.trim().toLowerCase() === "reason")
    : parsed.headers[parsed.headers.indexOf(email) + 1];
  return { email, variables: reason && reason !== email ? { [reason]: "reason" } : {} };
}
