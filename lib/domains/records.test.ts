import { describe, expect, it } from "vitest";
import { dnsRecord, type DnsRecord } from "@/lib/schemas/domains";
import { fullHost, relativeHost, txtStrings, zoneFileSnippet } from "./records";

const rec = (r: Partial<DnsRecord> & Pick<DnsRecord, "type" | "name" | "value" | "purpose">): DnsRecord => dnsRecord.parse(r);

describe("relativeHost / fullHost", () => {
  it("gives the apex as @ and strips the zone from full names", () => {
    expect(relativeHost("example.com", "example.com")).toBe("@");
    expect(relativeHost("Example.COM.", "example.com")).toBe("@");
    expect(relativeHost("@", "example.com")).toBe("@");
    expect(relativeHost("", "example.com")).toBe("@");
    expect(relativeHost("mail._domainkey.example.com", "example.com")).toBe("mail._domainkey");
    expect(relativeHost("send.mail.example.com.", "example.com.")).toBe("send.mail");
  });

  it("keeps relative names and does not strip a zone that only ends the same way", () => {
    expect(relativeHost("mail._domainkey", "example.com")).toBe("mail._domainkey");
    expect(relativeHost("notexample.com", "example.com")).toBe("notexample.com");
  });

  it("builds the full name from either form", () => {
    expect(fullHost("mail._domainkey", "example.com")).toBe("mail._domainkey.example.com");
    expect(fullHost("mail._domainkey.example.com", "example.com")).toBe("mail._domainkey.example.com");
    expect(fullHost("@", "Example.com.")).toBe("example.com");
  });
});

describe("txtStrings", () => {
  it("splits long values into quoted strings of at most 255 bytes that join back to the value", () => {
    const value = `v=DKIM1; k=rsa; p=${"A".repeat(600)}`;
    const strings = txtStrings(value);
    expect(strings).toHaveLength(3);
    const inner = strings.map((s) => s.slice(1, -1));
    expect(inner.map((s) => s.length)).toEqual([255, 255, value.length - 510]);
    expect(inner.join("")).toBe(value);
  });

  it("counts bytes, never cuts a multi-byte character, and escapes quotes, backslashes and line breaks", () => {
    const strings = txtStrings("é".repeat(200)); // 400 bytes
    expect(strings.map((s) => new TextEncoder().encode(s.slice(1, -1)).length)).toEqual([254, 146]);
    expect(txtStrings('say "hi" \\ now\nplease')).toEqual(['"say \\"hi\\" \\\\ now\\010please"']);
    expect(txtStrings("")).toEqual(['""']);
  });
});

describe("zoneFileSnippet", () => {
  const dkimKey = `v=DKIM1; k=rsa; p=${"M".repeat(300)}`;
  const records = [
    rec({ type: "TXT", name: "mail._domainkey.example.com", value: dkimKey, purpose: "dkim" }),
    rec({ type: "TXT", name: "send.example.com", value: "v=spf1 include:spf.mail.test ~all", purpose: "spf" }),
    rec({ type: "MX", name: "send.example.com", value: "feedback.mail.test", priority: 10, purpose: "return-path" }),
    rec({ type: "CNAME", name: "track", value: "links.mail.test", purpose: "tracking" }),
    rec({ type: "MX", name: "example.com", value: "inbound.mail.test.", purpose: "receiving" }),
  ];

  it("writes $ORIGIN, a comment per record, relative names, split TXT, MX priority and absolute targets", () => {
    const text = zoneFileSnippet("Example.com", records);
    const chunks = txtStrings(dkimKey);
    expect(text).toBe(
      [
        "; DNS records for example.com",
        "$ORIGIN example.com.",
        "",
        "; DKIM: the public key receivers use to check this domain's signatures",
        `mail._domainkey\t3600\tIN\tTXT\t${chunks.join(" ")}`,
        "",
        "; SPF: the servers allowed to send mail for this domain",
        'send\t3600\tIN\tTXT\t"v=spf1 include:spf.mail.test ~all"',
        "",
        "; Return path: where bounces are sent",
        "send\t3600\tIN\tMX\t10 feedback.mail.test.",
        "",
        "; Purpose: tracking",
        "track\t3600\tIN\tCNAME\tlinks.mail.test.",
        "",
        "; MX: where mail for this domain is delivered",
        "@\t3600\tIN\tMX\t10 inbound.mail.test.",
        "",
      ].join("\n"),
    );
    expect(chunks).toHaveLength(2);
  });

  it("keeps a comment on one line and takes a TTL", () => {
    const text = zoneFileSnippet("example.com", [rec({ type: "A", name: "www", value: "192.0.2.1", purpose: "web\nserver" })], { ttl: 300 });
    expect(text).toContain("; Purpose: web server\nwww\t300\tIN\tA\t192.0.2.1\n");
  });
});
