import { queryOptions } from "@tanstack/react-query";
import { api, lazySchema } from "@/lib/api-client";
import type { DeliverabilityRange } from "@/lib/schemas/deliverability";
import type { AlertSettingsInput } from "@/lib/schemas/alerts";

const deliverabilitySchemas = () => import("@/lib/schemas/deliverability");
const alertsSchemas = () => import("@/lib/schemas/alerts");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}`;

export const insightKeys = {
  deliverability: (project: string, range: DeliverabilityRange) => ["deliverability", project, range] as const,
  alerts: (project: string) => ["alerts", project] as const,
  activeAlerts: (project: string) => ["alerts", project, "active"] as const,
};

export function deliverabilityQuery(project: string, range: DeliverabilityRange) {
  return queryOptions({
    queryKey: insightKeys.deliverability(project, range),
    queryFn: ({ signal }) => api.get(`${base(project)}/deliverability`, { signal, query: { range }, schema: lazySchema(deliverabilitySchemas, "deliverabilityData") }),
    refetchInterval: 60_000,
  });
}

export function alertsQuery(project: string) {
  return queryOptions({
    queryKey: insightKeys.alerts(project),
    queryFn: ({ signal }) => api.get(`${base(project)}/alerts`, { signal, schema: lazySchema(alertsSchemas, "alertsView") }),
    refetchInterval: 30_000,
  });
}

/** The banner's: every screen of the project, so small and not too often. */
export function activeAlertsQuery(project: string) {
  return queryOptions({
    queryKey: insightKeys.activeAlerts(project),
    queryFn: ({ signal }) => api.get(`${base(project)}/alerts/active`, { signal, schema: lazySchema(alertsSchemas, "activeAlertsView") }),
    refetchInterval: 60_000,
  });
}

export const alertMutations = {
  /** Answers the settings, with the webhook's signing secret once when a webhook is set for the first time. */
  saveSettings: (project: string, body: AlertSettingsInput) => api.put(`${base(project)}/alerts/settings`, body, { schema: lazySchema(alertsSchemas, "savedAlertSettings") }),
  rotateWebhookSecret: (project: string) => api.post(`${base(project)}/alerts/webhook-secret`, undefined, { schema: lazySchema(alertsSchemas, "revealedWebhookSecret") }),
};
