import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_FILE_ROWS } from "@/lib/schemas/limits";
import { createRowMapper, mapRows, parseCsv } from "./csv";
import { mapInSlices, parseCsvInSlices, TooManyRowsError } from "./slices";

/** A CSV value: plain, or quoted with the delimiter, quotes and line breaks inside. */
const value = fc.oneof(
  fc.stringMatching(/^[a-z0-9@. ]{0,8}$/),
  fc.stringMatching(/^[a-z,;"\n\r ]{0,8}$/).map((v) => `"${v.replace(/"/g, '""')}"`),
  fc.constant("ada@example.com"),
  fc.constant('"unclosed'),
);
const csvText = fc
  .tuple(fc.constantFrom(",", ";", "\t"), fc.array(fc.array(value, { minLength: 0, maxLength: 4 }), { minLength: 0, maxLength: 40 }), fc.constantFrom("\n", "\r\n"))
  .map(([delimiter, rows, eol]) => rows.map((r) => r.join(delimiter)).join(eol));

describe("parseCsvInSlices", () => {
  it("gives what parseCsv gives, whatever the slice boundaries cut through", async () => {
    await fc.assert(
      fc.asyncProperty(csvText, fc.integer({ min: 4, max: 64 }), async (text, chunkBytes) => {
        expect(await parseCsvInSlices(text, { maxRows: 1000, chunkBytes })).toEqual(parseCsv(text));
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it(`takes ${MAX_FILE_ROWS.toLocaleString("en-US")} rows and refuses one more`, async () => {
    const rows = Array.from({ length: MAX_FILE_ROWS }, (_, i) => `u${i}@example.com,Name ${i}`);
    const atLimit = await parseCsvInSlices(["email,name", ...rows].join("\n"), { maxRows: MAX_FILE_ROWS });
    expect(atLimit.rows).toHaveLength(MAX_FILE_ROWS);
    expect(atLimit.rows.at(-1)).toEqual({ row: MAX_FILE_ROWS + 1, values: { email: `u${MAX_FILE_ROWS - 1}@example.com`, name: `Name ${MAX_FILE_ROWS - 1}` } });
    await expect(parseCsvInSlices(["email,name", ...rows, "one@more.example"].join("\n"), { maxRows: MAX_FILE_ROWS })).rejects.toBeInstanceOf(TooManyRowsError);
  });

  it("refuses a 14 MB file of 1.1M rows", async () => {
    const huge = `email\n${"x@example.com\n".repeat(1_100_000)}`;
    await expect(parseCsvInSlices(huge, { maxRows: 1000 })).rejects.toThrow("more than 1,000 rows");
  });

  it("gives the event loop a turn between slices", async () => {
    const text = `email\n${Array.from({ length: 20_000 }, (_, i) => `u${i}@example.com`).join("\n")}`;
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      await parseCsvInSlices(text, { maxRows: MAX_FILE_ROWS, chunkBytes: 4096 });
    } finally {
      clearInterval(ticker);
    }
    expect(turns).toBeGreaterThan(0);
  });
});

describe("mapInSlices", () => {
  it("maps like Array.map, with the row mapper's memory of repeats across slices", async () => {
    const parsed = parseCsv(`email\n${Array.from({ length: 5000 }, (_, i) => `u${i % 4000}@example.com`).join("\n")}`);
    const mapping = { email: "email", variables: {} };
    expect(await mapInSlices(parsed.rows, createRowMapper(mapping))).toEqual(mapRows(parsed.rows, mapping));
  });
});
