import { describe, expect, it } from "vitest";
import { deriveDomainStatus, domainStatusWord, recordsVerified } from "./status";

const r = (verified: boolean) => ({ verified });

describe("deriveDomainStatus", () => {
  it("is verified when every record is, whatever older word the service gives, except failed", () => {
    expect(deriveDomainStatus(undefined, [r(true), r(true)])).toBe("verified");
    expect(deriveDomainStatus("pending", [r(true)])).toBe("verified");
    expect(deriveDomainStatus("Not Started", [r(true)])).toBe("verified");
    expect(deriveDomainStatus("failed", [r(true)])).toBe("failed");
  });

  it("is pending while any record is not verified, or when there are no records and no word", () => {
    expect(deriveDomainStatus(undefined, [r(true), r(false)])).toBe("pending");
    expect(deriveDomainStatus(undefined, [])).toBe("pending");
    expect(deriveDomainStatus("verified", [r(false)])).toBe("verified");
  });

  it("reads the service's words and keeps an unknown one", () => {
    expect(domainStatusWord("ACTIVE")).toBe("verified");
    expect(domainStatusWord("temporary_failure")).toBe("pending");
    expect(domainStatusWord("Invalid")).toBe("failed");
    expect(domainStatusWord("quarantined")).toBe("quarantined");
    expect(domainStatusWord("")).toBeNull();
  });

  it("needs at least one record to call them verified", () => {
    expect(recordsVerified([])).toBe(false);
  });
});
