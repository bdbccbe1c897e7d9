import { describe, expect, it } from "vitest";
import { encodeHead, encodeRows, encodeStop, type ExportColumn } from "@/lib/server/export/format";
import { stoppedMessage } from "./run-export";

/** The Export button tells a file cut at a limit from a whole one by its last line, as the server writes it. */
const COLUMNS: ExportColumn<number>[] = [{ header: "n", value: (n) => n }];
const bytes = (text: string) => new TextEncoder().encode(text);
/** The file as the browser may receive it: in chunks that need not end at a line. */
const chunked = (text: string, size: number) => {
  const all = bytes(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
};

describe("stoppedMessage", () => {
  const rows = Array.from({ length: 300 }, (_, i) => i);
  for (const format of ["csv", "ndjson"] as const) {
    it(`reads the limit's line at the end of a ${format} file, whatever the chunks`, () => {
      const file = encodeHead(format, COLUMNS) + encodeRows(format, COLUMNS, rows) + encodeStop(format, "rows", 300, 300);
      for (const size of [7, 100, 5_000]) {
        expect(stoppedMessage(chunked(file, size))).toBe("Export stopped after 300 rows: it reached its limit of 300 rows. Narrow the search to export the rest.");
      }
    });

    it(`finds none in a whole ${format} file`, () => {
      expect(stoppedMessage(chunked(encodeHead(format, COLUMNS) + encodeRows(format, COLUMNS, rows), 100))).toBeNull();
      expect(stoppedMessage([])).toBeNull();
    });
  }
});
