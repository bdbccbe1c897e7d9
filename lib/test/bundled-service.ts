import { createTestService, type TestService } from "@/service/test/harness";
import { serveTestService } from "./real-service";

/**
 * Test-only: the bundled service (service/) with its worker, over real HTTP on a free port,
 * so the dashboard's one service client talks to it as it would in production. Projects
 * `alpha` and `beta`; `verifiedDomain` adds a sandbox domain and waits until it is verified.
 */
export type BundledService = {
  url: string;
  key: string;
  svc: TestService;
  verifiedDomain(project: string, domain: string): Promise<void>;
  /** Waits until every message of the service is in a final state (the sandbox worker ran). */
  settled(): Promise<void>;
  close(): Promise<void>;
};

const FINAL = new Set(["delivered", "bounced", "complained", "rejected", "failed", "received"]);

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startBundledService(): Promise<BundledService> {
  // The dashboard under test listens on loopback, which only ALLOW_PRIVATE lets webhooks reach.
  const svc = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
  const served = await serveTestService(svc);
  return {
    ...served,
    async verifiedDomain(project, domain) {
      const res = await svc.call("POST", "/v1/domains", { project, body: { domain } });
      if (res.status !== 201) throw new Error(`adding ${domain}: ${res.status} ${await res.text()}`);
      await until(`${domain} to verify`, async () => {
        const list = (await (await svc.call("GET", "/v1/domains?status=verified", { project })).json()) as { data: { domain: string }[] };
        return list.data.some((d) => d.domain === domain);
      });
    },
    async settled() {
      const { messages } = await import("@/service/db/schema");
      await until("the service's messages to settle", async () => {
        const rows = await svc.db.select({ status: messages.status }).from(messages);
        return rows.every((r) => FINAL.has(r.status));
      });
    },
  };
}
