import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { ingestRoute } from "@/lib/server/event-stream/ingest-response";
import { registerProject } from "@/lib/server/projects";
import { drainRereads } from "@/lib/server/message-index/reread-worker";
import { setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { startBundledService, type BundledService } from "./bundled-service";

/**
 * Test-only: the dashboard's server side on a test database, talking to the bundled service
 * over HTTP, with the service's signed webhooks delivered to the dashboard's real ingest route
 * (served on a local port that stands in for PUBLIC_URL). Mail sent through the service reaches
 * the index by the path real events take.
 */
export type DashboardOnBundled = {
  service: BundledService;
  ingest: TestServer;
  env: (extra?: Record<string, string>) => void;
  register(externalId: string): Promise<Project>;
  /** Sends through the service (as an app would), `from` a verified domain of the project. */
  send(project: string, to: string, subject: string, from?: string): Promise<string>;
  /** Waits until the service has settled and the index holds every message it sent as final. */
  indexed(): Promise<void>;
  close(): Promise<void>;
};

export async function startDashboardOnBundled(extraEnv: Record<string, string> = {}): Promise<DashboardOnBundled> {
  const service = await startBundledService();
  const ingest = await startHttpServer(async (req, res) => {
    const match = /^\/api\/ingest\/([^/?]+)/.exec(req.url);
    if (!match || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await ingestRoute(new Request(`http://dashboard.test${req.url}`, { method: "POST", headers, body: req.body }), { params: Promise.resolve({ project: decodeURIComponent(match[1]!) }) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
  });
  const env = (extra: Record<string, string> = {}) =>
    setTestEnv({ SERVICE_URL: service.url, SERVICE_API_KEY: service.key, PUBLIC_URL: ingest.url, REREAD_COALESCE_MS: "1", SERVICE_TIMEOUT_MS: "8000", ...extraEnv, ...extra });
  env();
  const { dispose } = await useTestDb();
  return {
    service,
    ingest,
    env,
    async register(externalId) {
      const project = await registerProject({ externalId }, SYSTEM_ACTOR, { checkWithService: false });
      await connectEventStream(project);
      return project;
    },
    async send(project, to, subject, from) {
      const res = await service.svc.call("POST", "/v1/emails", { project, body: { from: { email: from ?? `shop@${project}.test` }, to: [{ email: to }], subject, text: `Hello, see https://shop.${project}.test/sale?u=1` } });
      if (res.status !== 202) throw new Error(`send: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    async indexed() {
      await service.settled();
      const { messages } = await import("@/service/db/schema");
      const ids = (await service.svc.db.select({ id: messages.id, status: messages.status }).from(messages)).filter((m) => m.status !== "received");
      const deadline = Date.now() + 20_000;
      for (;;) {
        await drainRereads();
        const final = rowsOf<{ n: number }>(
          await (await db()).execute(sql`
            select count(*)::int as n from indexed_messages
             where id in (select jsonb_array_elements_text(${JSON.stringify(ids.map((m) => m.id))}::jsonb))
               and status in ('delivered', 'bounced', 'complained', 'rejected', 'failed')`),
        )[0]!.n;
        if (final >= ids.length) return;
        if (Date.now() > deadline) throw new Error(`the index holds ${final} of ${ids.length} messages as final`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      // The service first: no delivery may reach a database that is gone.
      await service.close();
      await ingest.close();
      await dispose();
    },
  };
}
