import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { BatchRowOutcome } from "@/lib/schemas/batch";
import { escapeCell, resultsToCsv, toCsv } from "./export";

const outcomes: BatchRowOutcome[] = [
  { row: 2, email: "ada@example.com", name: "Ada, Countess", status: "sent", messageId: "msg_1" },
  { row: 3, email: "=HYPERLINK(\"http://evil\")@x.io", name: "+SUM(1)", status: "invalid", error: { field: "email", message: "must be an email address like name@example.com" } },
  { row: 4, email: "bob@example.com", name: "@cmd", status: "failed", error: { message: "-1 retries left", code: "rate_limited", field: null } },
  { row: 5, email: "tab@example.com", name: "\tindent", status: "suppressed", error: { message: "\rcarriage", code: "suppressed" } },
  { row: 6, email: "multi@example.com", name: "=1+1\nsecond line", status: "sent", messageId: "msg_2" },
];

describe("escapeCell", () => {
  it("prefixes an apostrophe to a cell starting with = + - @ tab or CR, and leaves others alone", () => {
    for (const v of ["=1", "+1", "-1", "@A1", "\tx", "\rx"]) expect(escapeCell(v)).toBe(`'${v}`);
    for (const v of ["a=1", " =1", "", "1-2", "ada@example.com"]) expect(escapeCell(v)).toBe(v);
  });
});

describe("resultsToCsv", () => {
  const csv = resultsToCsv(outcomes);

  it("starts with a BOM and a header, and uses CRLF", () => {
    expect(csv.startsWith("\ufeffrow,email,name,status,message_id,error_field,error_code,error\r\n")).toBe(true);
    expect(resultsToCsv([], { bom: false })).toBe("row,email,name,status,message_id,error_field,error_code,error\r\n");
  });

  it("neutralises every formula-like cell, multi-line ones included, and reads back to the same text otherwise", () => {
    const parsed = Papa.parse<string[]>(csv.replace(/^\ufeff/, ""), { skipEmptyLines: true }).data;
    expect(parsed.slice(1)).toEqual([
      ["2", "ada@example.com", "Ada, Countess", "sent", "msg_1", "", "", ""],
      ["3", "'=HYPERLINK(\"http://evil\")@x.io", "'+SUM(1)", "invalid", "", "email", "", "must be an email address like name@example.com"],
      ["4", "bob@example.com", "'@cmd", "failed", "", "", "rate_limited", "'-1 retries left"],
      ["5", "tab@example.com", "'\tindent", "suppressed", "", "", "suppressed", "'\rcarriage"],
      ["6", "multi@example.com", "'=1+1\nsecond line", "sent", "msg_2", "", "", ""],
    ]);
    // No cell of the file, as a spreadsheet splits it, begins with a formula character.
    for (const cell of parsed.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe("toCsv", () => {
  it("keeps numbers as numbers, negative ones included, and escapes negative-looking text", () => {
    const csv = toCsv([{ n: -5, s: "-5" }], [
      { header: "n", value: (r) => r.n },
      { header: "s", value: (r) => r.s },
    ], { bom: false });
    expect(csv).toBe("n,s\r\n-5,\"'-5\"\r\n");
  });
});
