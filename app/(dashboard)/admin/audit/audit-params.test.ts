import { describe, expect, it } from "vitest";
import { parseAuditParams } from "./audit-params";

describe("parseAuditParams", () => {
  it("maps URL parameters onto the audit query", () => {
    const { query, filters, invalid } = parseAuditParams({
      q: "acme",
      user: "u1",
      action: "user.create",
      outcome: "failure",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-01-31T23:59:59.999Z",
      cursor: "abc",
      unrelated: "x",
    });
    expect(invalid).toEqual([]);
    expect(query).toEqual({ q: "acme", actorId: "u1", action: "user.create", outcome: "failure", from: "2026-01-01T00:00:00.000Z", to: "2026-01-31T23:59:59.999Z", cursor: "abc", limit: 50 });
    expect(filters.user).toBe("u1");
  });

  it("drops malformed values and says why, keeping the rest", () => {
    const { query, filters, invalid } = parseAuditParams({ q: "acme", from: "yesterday", outcome: "maybe" });
    expect(query).toEqual({ q: "acme", limit: 50 });
    expect(filters).toEqual({ q: "acme" });
    expect(invalid.map((i) => i.param).sort()).toEqual(["from", "outcome"]);
    expect(invalid.find((i) => i.param === "outcome")?.message).toMatch(/success or failure/);
  });

  it("refuses a range that ends before it starts", () => {
    const { query, invalid } = parseAuditParams({ from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z" });
    expect(query.to).toBeUndefined();
    expect(invalid).toEqual([{ param: "to", message: "must be after the start date" }]);
  });

  it("ignores empty and repeated values sensibly", () => {
    const { query } = parseAuditParams({ q: "", action: ["user.create", "user.update"] });
    expect(query).toEqual({ action: "user.create", limit: 50 });
  });

  it("hands over the query as the schema reads it, so listAudit need not read it again", () => {
    // Trimmed and with the page size filled in: what the route's parseQuery hands over too.
    const { query } = parseAuditParams({ q: "  acme  ", action: " user.create " });
    expect(query).toEqual({ q: "acme", action: "user.create", limit: 50 });
  });
});
