import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { DeliverabilityRange } from "@/lib/schemas/deliverability";
import type { AlertSettingsInput } from "@/lib/schemas/alerts";

const deliverabilitySchemas = () => import("@/lib/schemas/deliverability");
const alertsSchemas = () => import("@/lib/schemas/alerts");
const tagsSchemas = () => import("@/lib/schemas/insight-tags");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}`;

export const insightKeys = {
  deliverability: (project: string, range: DeliverabilityRange) => ["deliverability", project, range] as const,
  tags: (project: string, range: DeliverabilityRange) => ["insight-tags", project, range] as const,
  alerts: (project: string) => ["alerts", project] as const,
  activeAlerts: (project: string) => ["alerts", project, "active"] as const,
};

export function deliverabilityQuery(project: string, range: DeliverabilityRange) {
  return apiQuery(insightKeys.deliverability(project, range), `${base(project)}/deliverability`, lazySchema(deliverabilitySchemas, "deliverabilityData"), { query: { range } }, { refetchInterval: 60_000 });
}

/** The Tags screen's figures per tag pair over a period. */
export function tagsQuery(project: string, range: DeliverabilityRange) {
  return apiQuery(insightKeys.tags(project, range), `${base(project)}/insight/tags`, lazySchema(tagsSchemas, "tagsData"), { query: { range } }, { refetchInterval: 60_000 });
}

export function alertsQuery(project: string) {
  return apiQuery(insightKeys.alerts(project), `${base(project)}/alerts`, lazySchema(alertsSchemas, "alertsView"), {}, { refetchInterval: 30_000 });
}

/** The banner's: every screen of the project, so small and not too often. */
export function activeAlertsQuery(project: string) {
  return apiQuery(insightKeys.activeAlerts(project), `${base(project)}/alerts/active`, lazySchema(alertsSchemas, "activeAlertsView"), {}, { refetchInterval: 60_000 });
}

export const alertMutations = {
  /** Answers the settings, with the webhook's signing secret once when a webhook is set for the first time. */
  saveSettings: (project: string, body: AlertSettingsInput) => api.put(`${base(project)}/alerts/settings`, body, { schema: lazySchema(alertsSchemas, "savedAlertSettings") }),
  rotateWebhookSecret: (project: string) => api.post(`${base(project)}/alerts/webhook-secret`, undefined, { schema: lazySchema(alertsSchemas, "revealedWebhookSecret") }),
};
