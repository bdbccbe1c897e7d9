import { apiQuery } from "./builders";
import { lazySchema } from "@/lib/api-client";
import type { TakenHealth } from "@/lib/schemas/health";

const healthSchemas = () => import("@/lib/schemas/health");

export const healthKeys = { all: ["health"] as const };

/**
 * The server's probe is fresh this long (lib/server/service/health.ts): asking sooner gets the
 * same answer. After that a new probe is made and waited for briefly: a service that refuses
 * or fails answers at once, one that hangs reaches the banner at the poll after the probe's
 * timeout.
 */
const PROBE_CACHE_MS = 10_000;

/**
 * Polled by the banner: slowly while the service is up, faster while it is not, to clear the
 * banner soon after recovery — and soon too when the reading is older than the server's probe
 * cache (a page rendered while the probe was slow gets the last reading known).
 */
export function healthQuery() {
  return apiQuery(healthKeys.all, "/api/health", lazySchema(healthSchemas, "healthResponse"), {}, {
    refetchInterval: (query) => (query.state.data?.state === "up" && Date.now() - query.state.dataUpdatedAt <= PROBE_CACHE_MS ? 30_000 : 10_000),
    refetchIntervalInBackground: false,
    retry: false,
    staleTime: PROBE_CACHE_MS,
  });
}

/**
 * The banner's query, starting from the reading the page was rendered with. It is not asked
 * again as the page mounts, however old that reading: the polling above checks it, so a page's
 * first load never fetches the answer (and loads zod to parse it) — which it used to do now
 * and then, when the reading crossed its ten seconds of freshness on the way to the browser.
 */
export function bannerHealthQuery(initial: TakenHealth | null | undefined) {
  return initial ? { ...healthQuery(), initialData: initial.value, initialDataUpdatedAt: initial.at, refetchOnMount: false } : healthQuery();
}
