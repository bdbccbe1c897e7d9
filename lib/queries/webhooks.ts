import { queryOptions } from "@tanstack/react-query";
import { api, apiFetch } from "@/lib/api-client";
import type { CreatedWebhook, CreateWebhookForm, WebhookListItem } from "@/lib/schemas/webhooks-form";
import type { Page } from "@/lib/schemas";

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/webhooks`;

export const webhookKeys = {
  all: (project: string) => ["webhooks", project] as const,
  list: (project: string, cursor: string | null) => [...webhookKeys.all(project), cursor] as const,
};

export function webhooksQuery(project: string, cursor: string | null) {
  return queryOptions({
    queryKey: webhookKeys.list(project, cursor),
    queryFn: ({ signal }) => api.get<Page<WebhookListItem>>(base(project), { signal, query: { cursor } }),
  });
}

export const webhookMutations = {
  create: (project: string, body: CreateWebhookForm) => api.post<CreatedWebhook>(base(project), body),
  remove: (project: string, id: string, confirmUrl?: string) =>
    apiFetch(`${base(project)}/${encodeURIComponent(id)}`, { method: "DELETE", body: confirmUrl ? { confirmUrl } : {} }),
};
