import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domains, jobs } from "../db/schema";
import { startDnsServer, type ZoneRecord } from "../lib/dns-test-server";
import { isSendingDomainVerified, receivingDomainFor } from "../lib/domains";
import { createTestService, type TestService } from "../test/harness";

type Rec = { type: string; name: string; value: string; priority: number | null; purpose: string; verified: boolean };

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const asZone = (records: Rec[]): ZoneRecord[] =>
  records.map((r) => ({ type: r.type as ZoneRecord["type"], name: r.name, value: r.value, priority: r.priority ?? undefined }));

describe("domain check in sandbox mode", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService({ worker: true, config: { SERVICE_SANDBOX_STEP_MS: 50, SERVICE_DNS_RESOLVER: "127.0.0.1:9" } });
  });
  afterAll(() => svc.close());

  it.each(["acme.test", "shop.example", "example.com", "mail.example.com"])("verifies %s by itself, records and receiving included", async (name) => {
    const { id } = await (await svc.call("POST", "/v1/domains", { body: { domain: name } })).json();
    const row = await until(async () => (await svc.db.select().from(domains).where(eq(domains.id, id)))[0], (r) => r.status === "verified");
    expect(row.records.every((r) => r.verified)).toBe(true);
    const receiving = await (await svc.call("GET", `/v1/domains/${id}/receiving`)).json();
    expect(receiving.enabled).toBe(true);
    expect(await isSendingDomainVerified(svc.db, svc.alpha.id, `someone@${name}`)).toBe(true);
    expect(await isSendingDomainVerified(svc.db, svc.beta.id, `someone@${name}`)).toBe(false);
    expect(await receivingDomainFor(svc.db, `Anyone@${name.toUpperCase()}`)).toMatchObject({ projectId: svc.alpha.id, domainId: id });
  });

  it("covers subdomains of a verified domain for sending, not for receiving", async () => {
    expect(await isSendingDomainVerified(svc.db, svc.alpha.id, "a@news.acme.test")).toBe(true);
    expect(await isSendingDomainVerified(svc.db, svc.alpha.id, "a@acme.testing")).toBe(false);
    expect(await isSendingDomainVerified(svc.db, svc.alpha.id, "not-an-address")).toBe(false);
    expect(await receivingDomainFor(svc.db, "a@news.acme.test")).toBeNull();
  });

  it("does not verify other names by itself (they are looked up in DNS)", async () => {
    const { id } = await (await svc.call("POST", "/v1/domains", { body: { domain: "not-reserved.invalid-tld-zz" } })).json();
    // Once a check has run (and found nothing), the domain is still pending.
    const row = await until(async () => (await svc.db.select().from(domains).where(eq(domains.id, id)))[0], (r) => r.lastCheckedAt !== null);
    expect(row.status).toBe("pending");
  });
});

describe("domain check against a real DNS server", () => {
  let svc: TestService;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  beforeAll(async () => {
    dns = await startDnsServer();
    svc = await createTestService({
      worker: true,
      // SMTP mode: even reserved names are looked up in DNS
      config: { SERVICE_SMTP_URL: "smtp://127.0.0.1:9", SERVICE_DNS_RESOLVER: dns.address, SERVICE_DOMAIN_CHECK_INTERVAL_MS: 100, SERVICE_DOMAIN_VERIFY_DEADLINE_MS: 60_000 },
    });
  });
  afterAll(async () => {
    await svc.close();
    await dns.close();
  });

  const read = (id: string) => async () => (await svc.db.select().from(domains).where(eq(domains.id, id)))[0];

  it("stays pending while records are wrong, then verifies once they are published, each record following", async () => {
    const res = await svc.call("POST", "/v1/domains", { body: { domain: "acme.test" } });
    const { id, records }: { id: string; records: Rec[] } = await res.json();
    const [dkim, spf, returnPath] = records;
    // wrong DKIM key, right SPF, return-path MX to a wrong host, no DMARC
    dns.setZone([
      { type: "TXT", name: dkim.name, value: "v=DKIM1; k=rsa; p=AAAA" },
      { type: "TXT", name: spf.name, value: spf.value },
      { type: "MX", name: returnPath.name, value: "mx.other.example", priority: 10 },
    ]);
    const partial = await until(read(id), (r) => r.records.some((x) => x.verified));
    // Two more checks after that one change nothing.
    const afterOne = await until(read(id), (r) => r.lastCheckedAt!.getTime() > partial.lastCheckedAt!.getTime());
    const still = await until(read(id), (r) => r.lastCheckedAt!.getTime() > afterOne.lastCheckedAt!.getTime());
    expect(still.status).toBe("pending");
    expect(still.records.map((r) => [r.purpose, r.verified])).toEqual([["dkim", false], ["spf", true], ["return_path", false], ["dmarc", false]]);
    expect(partial.lastCheckedAt).not.toBeNull();
    expect(await isSendingDomainVerified(svc.db, svc.alpha.id, "x@acme.test")).toBe(false);

    // publish the right records (DMARC left out: it is recommended, not required)
    dns.setZone(asZone(records.filter((r) => r.purpose !== "dmarc")));
    const verified = await until(read(id), (r) => r.status === "verified");
    expect(verified.records.map((r) => [r.purpose, r.verified])).toEqual([["dkim", true], ["spf", true], ["return_path", true], ["dmarc", false]]);
    expect(verified.receivingEnabled).toBe(false); // no MX for the domain itself yet
    const listed = await (await svc.call("GET", "/v1/domains?status=verified")).json();
    expect(listed.data.map((d: { id: string }) => d.id)).toEqual([id]);

    // the check goes on for receiving: publishing the MX enables it
    const receiving: Rec[] = (await (await svc.call("GET", `/v1/domains/${id}/receiving`)).json()).records;
    dns.setZone(asZone([...records, ...receiving]));
    await until(read(id), (r) => r.receivingEnabled);
    expect((await (await svc.call("GET", `/v1/domains/${id}/receiving`)).json()).enabled).toBe(true);
    // and then stops: once the check that enabled receiving has finished, none is scheduled.
    await svc.worker!.idle();
    const pending = await svc.db.select().from(jobs).where(eq(jobs.kind, "domain.check"));
    expect(pending.filter((j) => j.payload.domainId === id)).toHaveLength(0);
  });

  it("fails a domain whose records are not found by the deadline, and stops checking it", async () => {
    const t = await createTestService({
      worker: true,
      config: { SERVICE_SMTP_URL: "smtp://127.0.0.1:9", SERVICE_DNS_RESOLVER: dns.address, SERVICE_DOMAIN_CHECK_INTERVAL_MS: 50, SERVICE_DOMAIN_VERIFY_DEADLINE_MS: 400 },
    });
    try {
      dns.setZone([]);
      const { id } = await (await t.call("POST", "/v1/domains", { body: { domain: "never.example.org" } })).json();
      const row = await until(async () => (await t.db.select().from(domains).where(eq(domains.id, id)))[0], (r) => r.status === "failed");
      expect(row.records.every((r) => !r.verified)).toBe(true);
      // The check that failed it has finished; it scheduled no other.
      await t.worker!.idle();
      const left = await t.db.select().from(jobs).where(eq(jobs.kind, "domain.check"));
      expect(left).toHaveLength(0);
      expect((await (await t.call("GET", "/v1/domains?status=failed")).json()).data).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
