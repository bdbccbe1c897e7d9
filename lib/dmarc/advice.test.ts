import { describe, expect, it } from "vitest";
import { dmarcTags, flagSource, policyAdvice, ruaCarries, type SourceFacts } from "./advice";

const base: SourceFacts = { domain: "example.com", dkimAligned: false, spfAligned: false, dkimDomain: null, dkimResult: null, spfDomain: null, spfResult: null, name: null };

describe("flagSource", () => {
  it("passes when either is aligned", () => {
    expect(flagSource({ ...base, dkimAligned: true })).toBeNull();
    expect(flagSource({ ...base, spfAligned: true })).toBeNull();
  });
  it("a valid signature or SPF pass for another domain: a forgotten sender", () => {
    expect(flagSource({ ...base, dkimResult: "pass", dkimDomain: "mailer.example" })).toMatchObject({ cause: "forgotten_sender", text: expect.stringContaining("signs as mailer.example") });
    expect(flagSource({ ...base, spfResult: "pass", spfDomain: "bounces.crm.example" })).toMatchObject({ cause: "forgotten_sender" });
  });
  it("a broken signature of the domain: forwarding", () => {
    expect(flagSource({ ...base, dkimResult: "fail", dkimDomain: "example.com", spfResult: "fail", spfDomain: "list.example.org", name: "mx.list.example.org" })).toMatchObject({ cause: "forwarding" });
  });
  it("nothing of ours: spoofing", () => {
    expect(flagSource({ ...base, dkimResult: "none", spfResult: "fail", spfDomain: "example.com" })).toMatchObject({ cause: "spoofing" });
  });
});

describe("policyAdvice", () => {
  it("waits for volume, then asks to fix, then moves on", () => {
    expect(policyAdvice("none", 50, 50).step).toBe("collect");
    expect(policyAdvice("none", 1000, 900).step).toBe("fix");
    expect(policyAdvice("none", 1000, 990)).toMatchObject({ step: "quarantine", text: expect.stringContaining("99.0%") });
    expect(policyAdvice("quarantine", 1000, 995).step).toBe("reject");
    expect(policyAdvice("reject", 1000, 995).step).toBe("hold");
  });
});

describe("the published record", () => {
  it("reads tags and finds the rua address", () => {
    const tags = dmarcTags("v=DMARC1; p=none; RUA=mailto:other@x.example, mailto:DMARC@in.example.com!10m; pct=100");
    expect(tags.p).toBe("none");
    expect(ruaCarries(tags.rua, "dmarc@in.example.com")).toBe(true);
    expect(ruaCarries(tags.rua, "dmarc@example.com")).toBe(false);
    expect(ruaCarries(undefined, "dmarc@example.com")).toBe(false);
  });
});
