import { queryOptions } from "@tanstack/react-query";
import { api, lazySchema } from "@/lib/api-client";

const healthSchemas = () => import("@/lib/schemas/health");

export const healthKeys = { all: ["health"] as const };

/** Polled by the banner: slowly while the service is up, faster while it is not, to clear the banner soon after recovery. */
export function healthQuery() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => api.get("/api/health", { signal, schema: lazySchema(healthSchemas, "healthResponse") }),
    refetchInterval: (query) => (query.state.data?.state === "up" ? 30_000 : 10_000),
    refetchIntervalInBackground: false,
    retry: false,
    // The server caches its probe this long: asking sooner gets the same answer.
    staleTime: 10_000,
  });
}
