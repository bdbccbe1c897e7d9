import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { DeliverabilityData, DeliverabilityRange } from "@/lib/insight/deliverability";
import type { ActiveAlertsView, AlertsView } from "@/lib/schemas/alerts";

const base = (project: string) => `/api/p/${encodeURIComponent(project)}`;

export const insightKeys = {
  deliverability: (project: string, range: DeliverabilityRange) => ["deliverability", project, range] as const,
  alerts: (project: string) => ["alerts", project] as const,
  activeAlerts: (project: string) => ["alerts", project, "active"] as const,
};

export function deliverabilityQuery(project: string, range: DeliverabilityRange) {
  return queryOptions({
    queryKey: insightKeys.deliverability(project, range),
    queryFn: ({ signal }) => api.get<DeliverabilityData>(`${base(project)}/deliverability`, { signal, query: { range } }),
    refetchInterval: 60_000,
  });
}

export function alertsQuery(project: string) {
  return queryOptions({
    queryKey: insightKeys.alerts(project),
    queryFn: ({ signal }) => api.get<AlertsView>(`${base(project)}/alerts`, { signal }),
    refetchInterval: 30_000,
  });
}

/** The banner's: every screen of the project, so small and not too often. */
export function activeAlertsQuery(project: string) {
  return queryOptions({
    queryKey: insightKeys.activeAlerts(project),
    queryFn: ({ signal }) => api.get<ActiveAlertsView>(`${base(project)}/alerts/active`, { signal }),
    refetchInterval: 60_000,
  });
}
