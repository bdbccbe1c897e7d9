import { describe, expect, it } from "vitest";
import { parseMessageParams } from "./messages-params";

describe("parseMessageParams", () => {
  it("keeps valid filters", () => {
    const r = parseMessageParams({ q: "ada@example.com", status: "bounced", direction: "outbound", tag: "kind:welcome", from: "2026-01-01T00:00:00.000Z" });
    expect(r.invalid).toEqual([]);
    expect(r.query).toMatchObject({ q: "ada@example.com", status: "bounced", direction: "outbound", tag: "kind:welcome" });
  });

  it("hands over the query as the schema reads it (trimmed, page size filled in)", () => {
    const r = parseMessageParams({ q: "  ada  ", status: "bounced" });
    expect(r.query).toEqual({ q: "ada", status: "bounced", limit: 20 });
  });

  it("drops a bad value with its reason and keeps the rest", () => {
    const r = parseMessageParams({ q: "x", status: "lost", from: "yesterday" });
    expect(r.filters).toEqual({ q: "x" });
    expect(r.invalid.map((i) => i.param).sort()).toEqual(["from", "status"]);
  });

  it("drops an end before the start", () => {
    const r = parseMessageParams({ from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z" });
    expect(r.filters.to).toBeUndefined();
    expect(r.invalid[0]).toMatchObject({ param: "to" });
  });
});

describe("parseMessageParams with a NUL", () => {
  it("drops a search holding a NUL and says why, instead of passing it to the database", async () => {
    const { parseMessageParams } = await import("./messages-params");
    const { query, invalid } = parseMessageParams({ q: "ada\u0000", cursor: "c\u0000" });
    expect(query.q).toBeUndefined();
    expect(query.cursor).toBeUndefined();
    expect(invalid.map((i) => i.param).sort()).toEqual(["cursor", "q"]);
    expect(invalid[0].message).toMatch(/NUL/);
  });
});
