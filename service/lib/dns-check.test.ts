import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRecords, createResolver } from "./dns-check";
import { sendingRecords, receivingRecords } from "./domain-records";
import { startDnsServer, type ZoneRecord } from "./dns-test-server";

let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

const published = (records: { type: string; name: string; value: string; priority: number | null }[]): ZoneRecord[] =>
  records.map((r) => ({ type: r.type as ZoneRecord["type"], name: r.name, value: r.value, priority: r.priority ?? undefined }));

describe("DNS check against a real DNS server", () => {
  it("finds every record published as asked, a 2048-bit DKIM key split into 255-byte strings included", async () => {
    const { records } = await sendingRecords("shop.example.org");
    expect(records.find((r) => r.purpose === "dkim")!.value.length).toBeGreaterThan(255);
    const all = [...records, ...receivingRecords("shop.example.org")];
    dns.setZone(published(all));
    const checked = await checkRecords(createResolver(dns.address), all);
    expect(checked.map((r) => [r.purpose, r.verified])).toEqual([
      ["dkim", true], ["spf", true], ["return_path", true], ["dmarc", true], ["receiving", true],
    ]);
    expect(dns.queries).toContain(records[0].name);
  });

  it("accepts what people really publish: extra SPF mechanisms, a stricter DMARC, spaces in the DKIM key", async () => {
    const { records } = await sendingRecords("real.example.org");
    const [dkim, spf, , dmarc] = records;
    const key = dkim.value.split("p=")[1];
    dns.setZone([
      { type: "TXT", name: dkim.name, value: `v=DKIM1;k=rsa; t=s; p=${key.slice(0, 100)} ${key.slice(100)}` },
      { type: "TXT", name: spf.name, value: "v=spf1 ip4:192.0.2.1 include:spf.mailservice.localhost -all" },
      { type: "TXT", name: spf.name, value: "google-site-verification=abc" },
      { type: "TXT", name: dmarc.name, value: "v=DMARC1; p=reject; rua=mailto:d@real.example.org" },
    ]);
    const checked = await checkRecords(createResolver(dns.address), records);
    expect(checked.map((r) => r.verified)).toEqual([true, true, false, true]);
  });

  it("refuses wrong values: another DKIM key, an SPF without our include, an MX to another host", async () => {
    const { records } = await sendingRecords("wrong.example.org");
    const other = await sendingRecords("wrong.example.org");
    const [, spf, returnPath, dmarc] = records;
    dns.setZone([
      { type: "TXT", name: records[0].name, value: other.records[0].value },
      { type: "TXT", name: spf.name, value: "v=spf1 include:_spf.google.com ~all" },
      { type: "MX", name: returnPath.name, value: "mx.elsewhere.example", priority: 10 },
      { type: "TXT", name: dmarc.name, value: "v=spf1 -all" },
    ]);
    const checked = await checkRecords(createResolver(dns.address), records);
    expect(checked.every((r) => !r.verified)).toBe(true);
  });

  it("treats NXDOMAIN and an unreachable server as not published, without throwing", async () => {
    const { records } = await sendingRecords("missing.example.org");
    dns.setZone([]);
    expect((await checkRecords(createResolver(dns.address), records)).some((r) => r.verified)).toBe(false);
    const unreachable = createResolver("127.0.0.1:9", 200);
    expect((await checkRecords(unreachable, records)).some((r) => r.verified)).toBe(false);
  });
});
