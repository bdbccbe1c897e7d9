import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../../contract/net/destination";
import { loadConfig } from "../config";
import { webhookDeliveries } from "../db/schema";
import { createTestService, type TestService } from "../test/harness";
import { addVerifiedDomain, startReceiver, waitFor } from "../test/sending-fixtures";

/**
 * Finding 4 of the security review (SSRF): a key limited to one project registered
 * http://127.0.0.1:… and 169.254.169.254 as webhooks and the service POSTed to them. Now
 * they are refused when created and again, on the address actually connected to, when
 * delivered. The receiver is a real HTTP server on loopback: "something on this machine".
 */
const email = { from: { email: "app@alpha.test" }, to: [{ email: "someone@example.com" }], subject: "Hook me", text: "x" };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function refusal(res: Response) {
  return { status: res.status, ...((await res.json()) as { error: { code: string; param: string; message: string } }).error };
}

describe("by default (no allow settings)", () => {
  let svc: TestService;
  /** hooks.rebind.test answers a public address first, then loopback: DNS rebinding. */
  let lookups = 0;
  const resolve: Resolver = async (host) => {
    if (host === "hooks.rebind.test") return lookups++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"];
    if (host === "hooks.internal.test") return ["10.20.30.40"];
    throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  };
  beforeAll(async () => {
    svc = await createTestService({ worker: true, resolve });
    await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
  });
  afterAll(() => svc.close());

  it("the settings default to refusing", () => {
    const config = loadConfig({});
    expect(config.SERVICE_WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(config.SERVICE_WEBHOOK_ALLOW_HOSTS).toEqual([]);
    expect(loadConfig({ SERVICE_WEBHOOK_ALLOW_HOSTS: "localhost:3000, 10.0.0.5", SERVICE_WEBHOOK_ALLOW_PRIVATE: "true" })).toMatchObject({
      SERVICE_WEBHOOK_ALLOW_HOSTS: ["localhost:3000", "10.0.0.5"],
      SERVICE_WEBHOOK_ALLOW_PRIVATE: true,
    });
  });

  it.each([
    [() => receiver.url, /loopback/],
    [() => "http://169.254.169.254/latest/meta-data/iam", /metadata/],
    [() => "http://[::ffff:127.0.0.1]:4010/hook", /loopback/],
    [() => "http://[fd00:ec2::254]/", /metadata/],
    [() => "http://metadata.google.internal/computeMetadata/v1/", /metadata/],
    [() => "http://localhost:3000/api/ingest/alpha", /loopback/],
    [() => "http://10.0.0.8/hook", /RFC 1918/],
    [() => "http://100.64.0.1/hook", /carrier-grade NAT/],
    [() => "http://[fe80::1]/hook", /link-local/],
    [() => "http://[fc00::1]/hook", /unique-local/],
    [() => "https://hooks.internal.test/x", /resolves to 10\.20\.30\.40/],
  ])("a project-limited key cannot register %s", async (url, reason) => {
    const res = await svc.call("POST", "/v1/webhooks", { key: svc.alphaKey, project: null, body: { url: url(), eventTypes: ["accepted"] } });
    const e = await refusal(res);
    expect(e).toMatchObject({ status: 400, code: "destination_not_allowed", param: "url" });
    expect(e.message).toMatch(reason);
  });

  it("DNS rebinding: a name public when registered and loopback when delivered gets no request", async () => {
    const port = new URL(receiver.url).port;
    const created = await svc.call("POST", "/v1/webhooks", { key: svc.alphaKey, project: null, body: { url: `http://hooks.rebind.test:${port}/hook`, eventTypes: ["accepted"] } });
    expect(created.status).toBe(201);
    const hook = (await created.json()) as { id: string };
    const before = receiver.received.length;
    expect((await svc.call("POST", "/v1/emails", { body: email })).status).toBe(202);
    // The delivery runs its attempts (each refused at connect) and ends failed.
    const delivery = await waitFor(async () => {
      const [row] = await svc.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
      return row?.state === "failed" ? row : null;
    }, "the delivery to give up");
    expect(delivery.lastError).toMatch(/hooks\.rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(delivery.lastStatus).toBeNull();
    expect(receiver.received.length).toBe(before);
  });
});

describe("with the allow settings", () => {
  it("SERVICE_WEBHOOK_ALLOW_HOSTS lets exactly the listed host:port through, and it is delivered", async () => {
    const host = new URL(receiver.url).host;
    const svc = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_ALLOW_HOSTS: [host] } });
    try {
      await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
      const ok = await svc.call("POST", "/v1/webhooks", { body: { url: receiver.url, eventTypes: ["accepted"] } });
      expect(ok.status).toBe(201);
      const otherPort = await svc.call("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:1/hook", eventTypes: ["accepted"] } });
      expect(otherPort.status).toBe(400);
      const before = receiver.received.length;
      expect((await svc.call("POST", "/v1/emails", { body: email })).status).toBe(202);
      await waitFor(async () => receiver.received.length > before, "the delivery");
    } finally {
      await svc.close();
    }
  });

  it("SERVICE_WEBHOOK_ALLOW_PRIVATE opens private ranges but never the metadata address", async () => {
    const svc = await createTestService({ config: { SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
    try {
      expect((await svc.call("POST", "/v1/webhooks", { body: { url: "http://192.168.1.20/hook", eventTypes: ["accepted"] } })).status).toBe(201);
      expect((await svc.call("POST", "/v1/webhooks", { body: { url: receiver.url, eventTypes: ["accepted"] } })).status).toBe(201);
      const metadata = await svc.call("POST", "/v1/webhooks", { body: { url: "http://169.254.169.254/", eventTypes: ["accepted"] } });
      expect(await refusal(metadata)).toMatchObject({ status: 400, param: "url" });
    } finally {
      await svc.close();
    }
  });
});
