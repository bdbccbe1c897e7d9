import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";
import { csvMapping } from "@/lib/schemas/batch";
import { detectFormat, FORMAT_HEAD_CHARS, parseCsv } from "./csv";
import { suggestMapping } from "./mapping";
import { mapRows } from "./map-rows";

describe("parseCsv", () => {
  it("reads a header row, a BOM, quoted fields with commas, quotes and line breaks, and CRLF", () => {
    const text = '\ufeffEmail,Name,Note\r\nada@example.com,"Lovelace, Ada","said ""hi""\r\ntwice"\r\nbob@example.com,Bob,plain\r\n';
    const parsed = parseCsv(text);
    expect(parsed.headers).toEqual(["Email", "Name", "Note"]);
    expect(parsed.hasHeader).toBe(true);
    expect(parsed.rows).toEqual([
      { row: 2, values: { Email: "ada@example.com", Name: "Lovelace, Ada", Note: 'said "hi"\r\ntwice' } },
      { row: 3, values: { Email: "bob@example.com", Name: "Bob", Note: "plain" } },
    ]);
  });

  it("detects semicolon and tab delimiters", () => {
    expect(parseCsv("email;first name\na@example.com;Ada\n")).toMatchObject({
      delimiter: ";",
      rows: [{ row: 2, values: { email: "a@example.com", "first name": "Ada" } }],
    });
    expect(parseCsv("email\tplan\na@example.com\tpro\n").rows[0].values).toEqual({ email: "a@example.com", plan: "pro" });
  });

  it("numbers rows as in the file, skipping blank lines without renumbering", () => {
    const parsed = parseCsv("email\n\na@example.com\n,\nb@example.com");
    expect(parsed.rows.map((r) => r.row)).toEqual([3, 5]);
  });

  it("names empty and repeated headers, fills short rows and flags rows with extra values", () => {
    const parsed = parseCsv("email,,tag,Tag\na@example.com\nb@example.com,x,y,z,extra\n");
    expect(parsed.headers).toEqual(["email", "column 2", "tag", "Tag (2)"]);
    expect(parsed.rows[0]).toEqual({ row: 2, values: { email: "a@example.com", "column 2": "", tag: "", "Tag (2)": "" } });
    expect(parsed.rows[1].error).toBe("has 5 values but the header has 4 columns: check for an unquoted delimiter");
  });

  it("flags an unclosed quote on its row", () => {
    const parsed = parseCsv('email,name\na@example.com,"Ada\n');
    expect(parsed.rows[0].error).toBe("a quoted value is not closed: check the quotation marks in this row");
  });

  it("treats pasted rows that start with an address as having no header", () => {
    const parsed = parseCsv("ada@example.com, Ada\nbob@example.com, Bob\n");
    expect(parsed.hasHeader).toBe(false);
    expect(parsed.headers).toEqual(["column 1", "column 2"]);
    expect(parsed.rows.map((r) => r.row)).toEqual([1, 2]);
    expect(parseCsv("a@example.com\n", { header: true }).rows).toEqual([]);
  });

  it("returns nothing for an empty file", () => {
    expect(parseCsv("")).toMatchObject({ headers: [], rows: [] });
    expect(parseCsv("\n\n")).toMatchObject({ headers: [], rows: [] });
  });
});

describe("detectFormat", () => {
  const big = (delimiter: string, newline: string) =>
    [`email${delimiter}first name${delimiter}note`, ...Array.from({ length: 20_000 }, (_, i) => `p${i}@example.com${delimiter}Name ${i}${delimiter}"a, b"`)].join(newline) + newline;

  it("judges a large file on its head alone, with the same result as on the whole file", () => {
    const parse = vi.spyOn(Papa, "parse");
    try {
      for (const [delimiter, newline] of [[";", "\r\n"], ["\t", "\n"], [",", "\r"]]) {
        const text = big(delimiter, newline);
        expect(text.length).toBeGreaterThan(10 * FORMAT_HEAD_CHARS);
        parse.mockClear();
        expect(detectFormat(text)).toEqual({ delimiter, newline });
        // Papa's line-break guess splits all it is given into lines: a whole 100,000-row file
        // held the server's event loop for up to 300 ms.
        const given = parse.mock.calls[0][0] as unknown as string;
        expect(given.length).toBeLessThanOrEqual(FORMAT_HEAD_CHARS);
        // Cut where a record ends, not inside one.
        expect(text.startsWith(given)).toBe(true);
        expect(given.endsWith(newline) || text.startsWith(newline, given.length)).toBe(true);
      }
    } finally {
      parse.mockRestore();
    }
  });

  it("sees the line break of a file whose first line is longer than the head", () => {
    const long = `email,${"x".repeat(FORMAT_HEAD_CHARS + 10)}`;
    for (const newline of ["\r", "\r\n", "\n"]) {
      expect(detectFormat([long, "a@example.com,1", "b@example.com,2"].join(newline) + newline)).toEqual({ delimiter: ",", newline });
    }
    expect(detectFormat(`email;${"y".repeat(FORMAT_HEAD_CHARS * 2)}`)).toMatchObject({ delimiter: ";" }); // one line, no break at all
  });
});

describe("suggestMapping", () => {
  it("recognises email and name headers; everything else becomes a merge variable", () => {
    expect(suggestMapping(["E-mail Address", "Full Name", "plan", "Company Name", "2fa"])).toEqual({
      email: "E-mail Address",
      name: "Full Name",
      variables: { plan: "plan", "Company Name": "company_name", "2fa": "_2fa" },
    });
  });

  it("uses first and last name columns when there is no full name", () => {
    expect(suggestMapping(["Email", "First Name", "Surname", "firstName"])).toEqual({
      email: "Email",
      firstName: "First Name",
      lastName: "Surname",
      variables: { firstName: "firstName" },
    });
  });

  it("takes the template's variable names and keeps variable names unique", () => {
    expect(suggestMapping(["email", "Plan Tier", "order-id", "Order ID"], { templateVariables: ["orderId"] }).variables).toEqual({
      "Plan Tier": "plan_tier",
      "order-id": "orderId",
      "Order ID": "orderId_2",
    });
  });

  it("finds the email column by its values when no header names it", () => {
    const parsed = parseCsv("Ada,ada@example.com\nBob,bob@example.com\n");
    expect(suggestMapping(parsed.headers, { rows: parsed.rows }).email).toBe("column 2");
    expect(suggestMapping(["a", "b"]).email).toBeNull();
  });

  it("suggests a mapping the shared schema accepts", () => {
    const { email, ...rest } = suggestMapping(["Email", "Name", "Plan"]);
    expect(csvMapping.safeParse({ ...rest, email }).success).toBe(true);
  });
});

describe("csvMapping schema", () => {
  it("names the field in each error", () => {
    const result = csvMapping.safeParse({ email: "", name: "Name", firstName: "First", variables: { Plan: "9lives" } });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues).toEqual(
      expect.arrayContaining([
        ["email", "choose the column that holds the email address"],
        ["variables.Plan", "may contain only letters, digits and underscores, and not start with a digit"],
      ]),
    );
  });

  it("refuses a full name together with first/last name columns", () => {
    const result = csvMapping.safeParse({ email: "Email", name: "Name", firstName: "First" });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["name"], message: "choose a full-name column or first and last name columns, not both" }),
    ]);
  });
});

describe("mapRows", () => {
  const csv = [
    "Email,First,Last,Plan",
    "ada@example.com,Ada,Lovelace,pro", // 2 ok
    "not-an-address,Bob,,free", // 3 malformed
    ",Carol,,free", // 4 missing
    "ADA@example.com ,Ada,Again,pro", // 5 duplicate of 2
    '"Grace Hopper <grace@example.com>",,,team', // 6 named address
    `dan@example.com,${"D".repeat(201)},,free`, // 7 name too long
    "eve@example.com,Eve,,pro,extra", // 8 extra value
  ].join("\n");
  const parsed = parseCsv(csv);
  const mapping = { email: "Email", firstName: "First", lastName: "Last", variables: { Plan: "plan" } };
  const rows = mapRows(parsed.rows, mapping);

  it("maps valid rows to email, name and merge data", () => {
    expect(rows[0]).toEqual({ row: 2, email: "ada@example.com", name: "Ada Lovelace", data: { plan: "pro" }, errors: [] });
    expect(rows[4]).toEqual({ row: 6, email: "grace@example.com", name: "Grace Hopper", data: { plan: "team" }, errors: [] });
  });

  it("flags malformed, missing, too-long and repeated values with the field", () => {
    expect(rows[1].errors).toEqual([{ field: "email", message: "must be an email address like name@example.com" }]);
    expect(rows[2].errors).toEqual([{ field: "email", message: "is missing" }]);
    expect(rows[3]).toMatchObject({ row: 5, email: "ADA@example.com" });
    expect(rows[3].errors).toEqual([{ field: "email", message: "repeats row 2: the address is sent one message, from row 2" }]);
    expect(rows[5].errors).toEqual([{ field: "name", message: "must be at most 200 characters" }]);
    expect(rows[6].errors).toEqual([{ field: "row", message: "has 5 values but the header has 4 columns: check for an unquoted delimiter" }]);
  });

  it("maps 10,000 rows, with every invalid and repeated one flagged", () => {
    const lines = ["email,name,code"];
    for (let i = 0; i < 10_000; i++) {
      const email = i % 1000 === 999 ? `broken${i}.example.com` : i % 2500 === 1 ? "user0@example.com" : `user${i}@example.com`;
      lines.push(`${email},"User ${i}",=HYPERLINK("x")`);
    }
    const parsedBig = parseCsv(lines.join("\r\n"));
    expect(parsedBig.rows).toHaveLength(10_000);
    const mapped = mapRows(parsedBig.rows, suggestMapping(parsedBig.headers) as { email: string; variables: Record<string, string> });
    expect(mapped[9_999]).toMatchObject({ row: 10_001, name: "User 9999", data: { code: '=HYPERLINK("x")' } });
    const invalid = mapped.filter((r) => r.errors.length);
    expect(invalid.map((r) => r.row)).toEqual([3, 1001, 2001, 2503, 3001, 4001, 5001, 5003, 6001, 7001, 7503, 8001, 9001, 10001]);
  });
});
