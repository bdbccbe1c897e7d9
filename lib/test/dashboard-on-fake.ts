import { useTestDb } from "@/lib/server/db/test-db";
import { setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";

/**
 * Test-only: the dashboard's server side on a test database, its service client pointed at a
 * stand-in service (a local HTTP server that answers with `answer` and records every request),
 * with `env` set besides SERVICE_URL. `close` drops the database, then stops the server.
 */
export async function startDashboardOnFake(
  answer: Parameters<typeof startHttpServer>[0],
  env: Record<string, string | undefined> = {},
): Promise<{ service: TestServer; close: () => Promise<void> }> {
  const service = await startHttpServer(answer);
  setTestEnv({ SERVICE_URL: service.url, ...env });
  const { dispose } = await useTestDb();
  return {
    service,
    close: async () => {
      await dispose();
      await service.close();
    },
  };
}
