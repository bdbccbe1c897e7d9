import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { startRealService, type ServedTestService } from "./real-service";

/**
 * Test-only: the dashboard's server side on a test database, its service client pointed at the
 * real bundled service, and the service's project `alpha` registered in the dashboard.
 * `close` drops the database, then stops the service.
 */
export type DashboardOnReal = { real: ServedTestService; alpha: Project; close: () => Promise<void> };

export async function startDashboardOnReal(
  opts: { serviceTimeoutMs?: number; service?: Parameters<typeof startRealService>[1] } = {},
): Promise<DashboardOnReal> {
  const real = await startRealService({}, opts.service);
  setTestEnv({ SERVICE_URL: real.url, SERVICE_API_KEY: real.key, SERVICE_TIMEOUT_MS: String(opts.serviceTimeoutMs ?? 5000) });
  const { dispose } = await useTestDb();
  const alpha = await registerProject({ externalId: "alpha" }, SYSTEM_ACTOR, { checkWithService: false });
  return {
    real,
    alpha,
    close: async () => {
      await dispose();
      await real.close();
    },
  };
}
