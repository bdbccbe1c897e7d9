import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ServiceHealthView } from "@/lib/schemas/health";

export const healthKeys = { all: ["health"] as const };

/** Polled by the banner: slowly while the service is up, faster while it is not, to clear the banner soon after recovery. */
export function healthQuery() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: async ({ signal }) => (await api.get<{ service: ServiceHealthView }>("/api/health", { signal })).service,
    refetchInterval: (query) => (query.state.data?.state === "up" ? 30_000 : 10_000),
    refetchIntervalInBackground: false,
    retry: false,
    staleTime: 5_000,
  });
}
