import { describe, expect, it } from "vitest";
import { dnsRecord, type DnsRecord } from "@/lib/schemas/domains";
import { compareRecord } from "./dns-compare";

const rec = (r: Pick<DnsRecord, "type" | "name" | "value" | "purpose"> & { priority?: number }): DnsRecord => dnsRecord.parse(r);
const txt = (...values: string[]) => values.map((text) => ({ text }));
const mx = (...entries: [number, string][]) => entries.map(([priority, exchange]) => ({ text: `${priority} ${exchange}`, mx: { priority, exchange } }));

describe("compareRecord", () => {
  const spf = rec({ type: "TXT", name: "example.com", value: "v=spf1 include:spf.mail.test ~all", purpose: "spf" });

  it("compares SPF by mechanisms: qualifiers, case, order and the all-term do not matter", () => {
    expect(compareRecord(spf, txt("v=spf1 ip4:192.0.2.0/24 +INCLUDE:spf.mail.test -all"))).toEqual({ status: "ok", problems: [] });
    expect(compareRecord(spf, txt("google-site-verification=x"))).toEqual({ status: "missing", problems: [] });
  });

  it("names an SPF record that lets any server send", () => {
    expect(compareRecord(spf, txt("v=spf1 include:spf.mail.test +all")).problems).toEqual([
      'The SPF record ends in "+all", which lets any server send as this domain: use "~all" or "-all"',
    ]);
  });

  it("counts three SPF records too", () => {
    expect(compareRecord(spf, txt("v=spf1 a ~all", "v=spf1 mx ~all", "v=spf1 include:spf.mail.test ~all")).problems[0]).toBe(
      "3 SPF records: mailbox providers treat this as an error — merge them into one",
    );
  });

  it("names spacing differences of a TXT value other than DKIM", () => {
    const record = rec({ type: "TXT", name: "_dmarc.example.com", value: "v=DMARC1; p=none", purpose: "dmarc" });
    expect(compareRecord(record, txt("v=DMARC1;p=none"))).toEqual({
      status: "mismatch",
      problems: ['Found only with different spacing: "v=DMARC1;p=none" — copy the value exactly'],
    });
    expect(compareRecord(record, txt("v=DMARC1; p=reject")).problems).toEqual([
      "The expected value is not among the TXT records published here: add it",
    ]);
  });

  it("accepts the DMARC record with a rua (or other tags) added, not with an expected tag changed", () => {
    const record = rec({ type: "TXT", name: "_dmarc.example.com", value: "v=DMARC1; p=none;", purpose: "dmarc" });
    expect(compareRecord(record, txt("v=DMARC1; p=none; rua=mailto:dmarc@example.com"))).toEqual({ status: "ok", problems: [] });
    expect(compareRecord(record, txt("v=DMARC1; p=reject; rua=mailto:dmarc@example.com")).status).toBe("mismatch");
  });

  it("names a different DKIM key", () => {
    const record = rec({ type: "TXT", name: "s._domainkey.example.com", value: "v=DKIM1; p=AAAA", purpose: "dkim" });
    expect(compareRecord(record, txt("v=DKIM1; p=BBBB")).problems).toEqual(["A different DKIM key is published here: replace it with the expected value"]);
  });

  it("checks MX priority and servers that would take the mail first", () => {
    const record = rec({ type: "MX", name: "example.com", value: "in.mail.test", priority: 10, purpose: "receiving" });
    expect(compareRecord(record, mx([10, "IN.mail.test."], [20, "backup.example.net"]))).toEqual({ status: "ok", problems: [] });
    expect(compareRecord(record, mx([5, "in.mail.test"])).problems).toEqual(["The MX record has priority 5; expected 10"]);
    expect(compareRecord(record, mx([10, "in.mail.test"], [10, "aspmx.l.google.com"])).problems).toEqual([
      "Other MX records come first or equal (aspmx.l.google.com): mail goes to them instead",
    ]);
    expect(compareRecord(record, [])).toEqual({ status: "missing", problems: [] });
  });

  it("compares CNAME targets and other types", () => {
    const cname = rec({ type: "CNAME", name: "track", value: "links.mail.test", purpose: "tracking" });
    expect(compareRecord(cname, txt("other.example.net")).problems).toEqual(["Points to other.example.net instead of links.mail.test"]);
    const a = rec({ type: "A", name: "www", value: "192.0.2.1", purpose: "web" });
    expect(compareRecord(a, txt("192.0.2.1", "192.0.2.2")).status).toBe("ok");
    expect(compareRecord(a, txt("192.0.2.9")).problems).toEqual(["Published: 192.0.2.9; expected 192.0.2.1"]);
  });
});
