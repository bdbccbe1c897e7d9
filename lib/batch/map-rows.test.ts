import { describe, expect, it } from "vitest";
import { mapRows } from "./map-rows";

const mapping = { email: "email", name: "name", variables: {} };

describe("mapRows", () => {
  it("takes the name from `Name <address>` when the name column is empty", () => {
    const [row] = mapRows([{ row: 2, values: { email: "Ada Lovelace <ada@example.com>", name: "" } }], mapping);
    expect(row).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", errors: [] });
  });

  // A cell of the uploaded file is anyone's text; the regular expression before backtracked
  // over its spaces (quadratic: about 10 s for this cell, on the server's one thread).
  it("checks a cell of 50,000 spaces between two words at once", () => {
    const started = performance.now();
    const [row] = mapRows([{ row: 2, values: { email: `a${" ".repeat(50_000)}b`, name: "" } }], mapping);
    expect(performance.now() - started).toBeLessThan(500);
    expect(row!.errors.length).toBeGreaterThan(0);
    expect(row!.errors.every((e) => e.field === "email")).toBe(true);
  });
});
