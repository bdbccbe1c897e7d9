import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Resolver } from "@/contract/net/destination";
import type { ServiceConfig } from "@/service/config";
import { createTestService, type TestService } from "@/service/test/harness";

export type ServedTestService = { url: string; key: string; svc: TestService; close: () => Promise<void> };

/**
 * The bundled service (service/) on its own test database, served over real HTTP on a
 * loopback port, for dashboard tests that should talk to the real thing rather than a fake.
 * Projects `alpha` and `beta`; `key` is the account-wide key to give the dashboard.
 */
export async function startRealService(
  config: Partial<ServiceConfig> = {},
  opts: { resolve?: Resolver; /** Awaited before the service handles each request (a copy of it): to act while one is in flight. */ before?: (req: Request) => Promise<void> } = {},
): Promise<ServedTestService> {
  // The dashboard's event stream is a webhook to PUBLIC_URL (localhost:3000 in tests), as npm start allows.
  const svc = await createTestService({ worker: true, resolve: opts.resolve, config: { SERVICE_WEBHOOK_ALLOW_HOSTS: ["localhost:3000"], SERVICE_SANDBOX_STEP_MS: 0, ...config } });
  const before = opts.before;
  const fetch = before ? async (req: Request) => (await before(req.clone()), svc.app.fetch(req)) : svc.app.fetch;
  return serveTestService(svc, fetch);
}

/** A test service served over real HTTP on a free loopback port; `close` stops both. */
export async function serveTestService(svc: TestService, fetch: (req: Request) => Response | Promise<Response> = svc.app.fetch): Promise<ServedTestService> {
  const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key: svc.accountKey,
    svc,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
    },
  };
}
