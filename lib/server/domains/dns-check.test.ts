import { createSocket, type Socket } from "node:dgram";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dnsRecord, type DnsRecord } from "@/lib/schemas/domains";
import { checkRecords, type RecordCheck } from "./dns-check";
import { TWO_SPF } from "./dns-compare";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";

/** A real DNS server on 127.0.0.1 (port chosen by the system), queried through node:dns. */
let dns: FakeDnsServer;

const DKIM = `v=DKIM1; k=rsa; p=${"MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ".repeat(10)}IDAQAB`; // a 2048-bit key's length: the answer needs TCP
const SPF = "v=spf1 include:spf.mail.test ~all";

const rec = (r: Pick<DnsRecord, "type" | "name" | "value" | "purpose"> & { priority?: number }): DnsRecord => dnsRecord.parse(r);

beforeAll(async () => {
  dns = await startFakeDnsServer({
    // Right: DKIM in two strings, a merged SPF, MX and CNAME differing only in case / trailing dot.
    "s1._domainkey.good.test": [{ type: "TXT", data: [DKIM.slice(0, 255), DKIM.slice(255)] }],
    "good.test": [
      { type: "TXT", data: "v=spf1 include:_spf.google.com +include:SPF.mail.test -all" },
      { type: "TXT", data: "google-site-verification=abc" },
    ],
    "send.good.test": [{ type: "MX", exchange: "Feedback.Mail.Test", priority: 10 }],
    "track.good.test": [{ type: "CNAME", target: "links.mail.test" }],

    // Wrong.
    "wrong.test": [
      { type: "TXT", data: "v=spf1 include:spf.mail.test ~all" },
      { type: "TXT", data: "v=spf1 include:_spf.google.com ~all" },
    ],
    "s1._domainkey.wrong.test.wrong.test": [{ type: "TXT", data: [DKIM.slice(0, 255), DKIM.slice(255)] }],
    "_dmarc.wrong.test": [{ type: "CNAME", target: "dmarc.proxy.example" }],
    // Two keys at one selector: the answer is too long for UDP, so this also takes the TCP path.
    "s6._domainkey.wrong.test": [{ type: "TXT", data: DKIM }, { type: "TXT", data: DKIM.replace("p=M", "p=X") }],
    "s3._domainkey.wrong.test": [{ type: "TXT", data: DKIM.slice(0, 255) }],
    "s4._domainkey.wrong.test": [{ type: "TXT", data: [DKIM.slice(0, 100), `\n  ${DKIM.slice(100)}`] }],
    "s5._domainkey.wrong.test": [{ type: "TXT", data: `"${DKIM.slice(0, 200)}" "${DKIM.slice(200)}"` }],
    "verify.wrong.test": [{ type: "TXT", data: "mail-verification=AbCdEf" }],
    "send.wrong.test": [
      { type: "TXT", data: "v=spf1 include:other.example ~all" },
      { type: "MX", exchange: "mx.elsewhere.example", priority: 10 },
    ],
    "track.wrong.test": [{ type: "A", address: "192.0.2.10" }],
    "broken.wrong.test": [{ type: "SERVFAIL" }],
    "apex.test.apex.test": [{ type: "TXT", data: SPF }],
  });
});

afterAll(async () => {
  await dns?.close();
});

async function checkOne(record: DnsRecord, domain?: string): Promise<RecordCheck> {
  const [result] = await checkRecords([record], { resolver: dns.address, timeoutMs: 2000, domain });
  return result;
}

describe("checkRecords against a live DNS server", () => {
  it("accepts right records: chunked DKIM, a merged SPF, MX and CNAME in another case or form", async () => {
    const results = await checkRecords(
      [
        rec({ type: "TXT", name: "s1._domainkey", value: DKIM, purpose: "dkim" }),
        rec({ type: "TXT", name: "@", value: SPF, purpose: "spf" }),
        rec({ type: "MX", name: "send", value: "feedback.mail.test.", priority: 10, purpose: "return-path" }),
        rec({ type: "CNAME", name: "track.good.test", value: "LINKS.mail.test.", purpose: "tracking" }),
      ],
      { resolver: dns.address, domain: "good.test" },
    );
    expect(results.map((r) => [r.name, r.status, r.problems])).toEqual([
      ["s1._domainkey.good.test", "ok", []],
      ["good.test", "ok", []],
      ["send.good.test", "ok", []],
      ["track.good.test", "ok", []],
    ]);
    expect(results[0].found).toEqual([DKIM]);
    expect(results[1].found).toHaveLength(2);
    // The exchange comes back as published, letter case included (compression may reuse the question's case).
    expect(results[2].found.map((f) => f.toLowerCase())).toEqual(["10 feedback.mail.test"]);
  });

  it("names two SPF records on one name", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "wrong.test", value: SPF, purpose: "spf" }));
    expect(result.status).toBe("mismatch");
    expect(result.problems).toEqual(["Two SPF records: mailbox providers treat this as an error — merge them into one"]);
    expect(TWO_SPF).toBe(result.problems[0]);
  });

  it("finds the record typed with the domain twice when the expected one is missing", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "s1._domainkey.wrong.test", value: DKIM, purpose: "dkim" }), "wrong.test");
    expect(result.status).toBe("missing");
    expect(result.found).toEqual([]);
    expect(result.problems).toEqual([
      'Found at s1._domainkey.wrong.test.wrong.test: the domain was typed twice. In the DNS panel enter the host as "s1._domainkey" — the panel adds wrong.test itself',
    ]);
  });

  it("finds the doubled apex name without being told the domain", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "apex.test", value: SPF, purpose: "spf" }));
    expect(result.status).toBe("missing");
    expect(result.problems).toEqual([
      'Found at apex.test.apex.test: the domain was typed twice. In the DNS panel enter the host as "@" (or leave it empty) — the panel adds apex.test itself',
    ]);
  });

  it("names a CNAME published where a TXT record is expected", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "_dmarc.wrong.test", value: "v=DMARC1; p=none", purpose: "dmarc" }));
    expect(result.status).toBe("mismatch");
    expect(result.problems).toEqual([
      "A CNAME record (to dmarc.proxy.example) is published here where a TXT record is expected: delete it and add the TXT record; " +
        "if your DNS provider proxies or flattens this name, turn that off for it",
    ]);
  });

  it("reports nothing published as missing, with no invented problem", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "s2._domainkey.wrong.test", value: DKIM, purpose: "dkim" }));
    expect(result).toMatchObject({ status: "missing", found: [], problems: [] });
  });

  it("names a DKIM value cut to its first 255 characters", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "s3._domainkey.wrong.test", value: DKIM, purpose: "dkim" }));
    expect(result.status).toBe("mismatch");
    expect(result.found).toEqual([DKIM.slice(0, 255)]);
    expect(result.problems).toEqual([
      `The DKIM value is cut short: 255 of ${DKIM.length} characters are published. ` +
        "The DNS panel may have a length limit or kept only the first 255-character part — paste the whole value",
    ]);
  });

  it("names a line-wrapped DKIM value and one pasted with its quotes", async () => {
    const wrapped = await checkOne(rec({ type: "TXT", name: "s4._domainkey.wrong.test", value: DKIM, purpose: "dkim" }));
    expect(wrapped.status).toBe("mismatch");
    expect(wrapped.problems).toEqual(["The DKIM value has spaces or line breaks in it: it was wrapped when copied — paste it again as one line"]);
    const quoted = await checkOne(rec({ type: "TXT", name: "s5._domainkey.wrong.test", value: DKIM, purpose: "dkim" }));
    expect(quoted.problems).toEqual(["The value contains quotation marks: paste it without quotes — the DNS panel adds them"]);
  });

  it("names two DKIM keys at one selector (an answer long enough to need TCP)", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "s6._domainkey.wrong.test", value: DKIM, purpose: "dkim" }));
    expect(result.found).toHaveLength(2);
    expect(result.status).toBe("mismatch");
    expect(result.problems).toEqual(["2 DKIM records at this name: receivers may use the wrong one — delete all but the expected one"]);
  });

  it("names a value found only with a different letter case", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "verify.wrong.test", value: "mail-verification=abcdef", purpose: "verification" }));
    expect(result.status).toBe("mismatch");
    expect(result.problems).toEqual(['Found only with different letter case: "mail-verification=AbCdEf" — copy the value exactly']);
  });

  it("names the SPF mechanism that is missing, and a wrong MX", async () => {
    const [spf, mx] = await checkRecords(
      [
        rec({ type: "TXT", name: "send", value: SPF, purpose: "spf" }),
        rec({ type: "MX", name: "send", value: "feedback.mail.test", priority: 10, purpose: "return-path" }),
      ],
      { resolver: dns.address, domain: "wrong.test" },
    );
    expect(spf.status).toBe("mismatch");
    expect(spf.problems).toEqual(["The SPF record lacks include:spf.mail.test: add it to the existing record rather than publishing another one"]);
    expect(mx.status).toBe("mismatch");
    expect(mx.found).toEqual(["10 mx.elsewhere.example"]);
    expect(mx.problems).toEqual([
      "Mail for this name goes to 10 mx.elsewhere.example instead of feedback.mail.test: replace those MX records with the expected one",
    ]);
  });

  it("names an address record answering where a CNAME is expected (a proxied record)", async () => {
    const result = await checkOne(rec({ type: "CNAME", name: "track.wrong.test", value: "links.mail.test", purpose: "tracking" }));
    expect(result.status).toBe("mismatch");
    expect(result.problems[0]).toBe(
      'An address record (192.0.2.10) answers here instead of the CNAME: the DNS provider is proxying or flattening it — set the record to "DNS only" (no proxy)',
    );
  });

  it("reports a failing server as an error", async () => {
    const result = await checkOne(rec({ type: "TXT", name: "broken.wrong.test", value: SPF, purpose: "spf" }));
    expect(result.status).toBe("error");
    expect(result.problems).toEqual(["Lookup of TXT broken.wrong.test failed: the DNS server failed to answer (SERVFAIL)"]);
  });
});

describe("checkRecords resolver option", () => {
  let silent: Socket;
  beforeAll(async () => {
    // Receives queries and never answers.
    silent = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
  });
  afterAll(() => silent.close());

  it("reports a resolver that does not answer as an error after the timeout", async () => {
    const [result] = await checkRecords([rec({ type: "TXT", name: "good.test", value: SPF, purpose: "spf" })], {
      resolver: `127.0.0.1:${silent.address().port}`,
      timeoutMs: 150,
      tries: 1,
    });
    expect(result.status).toBe("error");
    expect(result.problems).toEqual(["Lookup of TXT good.test failed: the DNS server did not answer in time"]);
  });

  it("refuses a resolver that is not an IP address", async () => {
    const [result] = await checkRecords([rec({ type: "TXT", name: "good.test", value: SPF, purpose: "spf" })], { resolver: "dns.example:53" });
    expect(result.status).toBe("error");
    expect(result.problems[0]).toContain('The DNS resolver "dns.example:53" is not valid');
  });
});
