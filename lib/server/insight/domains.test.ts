import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { getDeliverability } from "@/lib/server/alerts/deliverability";
import { FAILURE_RETRY_MS, lookupDueDomains, pendingDomains } from "./domains";
import { refreshInsight } from "./refresh";

/**
 * Company domains are classified by their MX hosts, looked up with a real DNS server (dns2 on
 * a local port, given as DNS_RESOLVER would be), once per domain, failures retried later.
 */
let dispose: () => Promise<void>;
let dns: FakeDnsServer;
let project: Project;

const ZONE = {
  "acme-corp.test": [
    { type: "MX" as const, exchange: "alt1.aspmx.l.google.com", priority: 5 },
    { type: "MX" as const, exchange: "aspmx.l.google.com", priority: 1 },
  ],
  "m365.test": [{ type: "MX" as const, exchange: "m365-test.mail.protection.outlook.com", priority: 0 }],
  "yahoo-hosted.test": [{ type: "MX" as const, exchange: "mta5.am0.yahoodns.net", priority: 1 }],
  "icloud-custom.test": [{ type: "MX" as const, exchange: "mx01.mail.icloud.com", priority: 10 }],
  "gateway.test": [{ type: "MX" as const, exchange: "mx1.pphosted.example", priority: 10 }],
  "broken.test": [{ type: "SERVFAIL" as const }],
  // nomx.test: not in the zone at all (NXDOMAIN)
};

async function domains(): Promise<Record<string, { provider: string | null; source: string; mx: string | null; due_in_min: number }>> {
  const rows = rowsOf<{ domain: string; provider: string | null; source: string; mx: string | null; due: number }>(
    await (await db()).execute(sql`select domain, provider, source, mx, extract(epoch from expires_at - now()) / 60 as due from insight_domains order by domain`),
  );
  return Object.fromEntries(rows.map((r) => [r.domain, { provider: r.provider, source: r.source, mx: r.mx, due_in_min: Math.round(Number(r.due)) }]));
}

beforeAll(async () => {
  dns = await startFakeDnsServer(ZONE);
  setTestEnv({ DNS_RESOLVER: dns.address, ALERT_MIN_VOLUME: "1" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
  const to = ["ada@gmail.com", "bo@acme-corp.test", "cy@m365.test", "di@yahoo-hosted.test", "ed@icloud-custom.test", "fi@gateway.test", "gu@nomx.test", "ha@broken.test"];
  await recordSentMessages(
    to.map((email, i) => ({
      projectId: project.id,
      messageId: `m${i}`,
      request: { from: { email: "shop@acme.test" }, to: [{ email }], subject: "Hi", text: "x" },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard" as const,
      status: email.startsWith("di@") ? "bounced" : "delivered",
    })),
  );
  await refreshInsight();
});
afterAll(async () => {
  await dispose();
  await dns.close();
});

describe("mailbox providers of recipient domains", () => {
  it("knows consumer domains at once and counts company domains as Other until their MX is looked up", async () => {
    expect((await domains())["gmail.com"]).toMatchObject({ provider: "gmail", source: "list" });
    expect((await domains())["acme-corp.test"]).toMatchObject({ provider: null, source: "pending" });
    const before = await getDeliverability(project, "24h");
    expect(before.providers.find((p) => p.provider === "other")?.sent).toBe(7);
    expect(before.pendingDomains).toBe(7);
  });

  it("looks them up in the background, a bounded number at a time, and moves their messages", async () => {
    expect(await lookupDueDomains({ limit: 3 })).toBe(3);
    expect(await lookupDueDomains({ limit: 100 })).toBe(4);
    expect(await lookupDueDomains({ limit: 100 })).toBe(0); // all looked up: nothing is due
    const found = await domains();
    expect(found["acme-corp.test"]).toMatchObject({ provider: "gmail", source: "mx", mx: "aspmx.l.google.com" });
    expect(found["m365.test"]).toMatchObject({ provider: "microsoft", source: "mx" });
    expect(found["yahoo-hosted.test"]).toMatchObject({ provider: "yahoo", source: "mx" });
    expect(found["icloud-custom.test"]).toMatchObject({ provider: "apple", source: "mx" });
    expect(found["gateway.test"]).toMatchObject({ provider: "other", source: "mx" });
    expect(found["nomx.test"]).toMatchObject({ provider: "other", source: "none" });
    // Kept for a week (an MX answer) or a day (no MX); a failed lookup is tried again soon.
    expect(found["acme-corp.test"]!.due_in_min).toBe(7 * 24 * 60);
    expect(found["nomx.test"]!.due_in_min).toBe(24 * 60);
    expect(found["broken.test"]).toMatchObject({ provider: null, source: "error", due_in_min: FAILURE_RETRY_MS / 60_000 });

    await refreshInsight();
    const after = await getDeliverability(project, "24h");
    const sent = Object.fromEntries(after.providers.map((p) => [p.provider, p.sent]));
    expect(sent).toEqual({ gmail: 2, microsoft: 1, yahoo: 1, apple: 1, other: 3 });
    expect(after.providers.find((p) => p.provider === "yahoo")).toMatchObject({ bounced: 1, bounceRate: 1, bounceLevel: "limit" });
    expect(after.pendingDomains).toBe(1);
    expect(await pendingDomains(project.id, new Date(Date.now() - 3_600_000))).toBe(1);
  });

  it("tries a failed lookup again once it is due, and then it counts where it belongs", async () => {
    dns.setZone({ ...ZONE, "broken.test": [{ type: "MX", exchange: "broken-test.mail.protection.outlook.com", priority: 1 }] });
    expect(await lookupDueDomains()).toBe(0); // not due yet: failures are cached for a while
    await (await db()).execute(sql`update insight_domains set expires_at = now() - interval '1 second' where domain = 'broken.test'`);
    expect(await lookupDueDomains()).toBe(1);
    expect((await domains())["broken.test"]).toMatchObject({ provider: "microsoft", source: "mx" });
    await refreshInsight();
    expect((await getDeliverability(project, "24h")).providers.find((p) => p.provider === "microsoft")?.sent).toBe(2);
  });
});
