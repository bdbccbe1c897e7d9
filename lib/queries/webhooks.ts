import { queryOptions } from "@tanstack/react-query";
import { api, apiFetch, lazySchema, noContent } from "@/lib/api-client";
import type { CreateWebhookForm } from "@/lib/schemas/webhooks-form";

const webhooksFormSchemas = () => import("@/lib/schemas/webhooks-form");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/webhooks`;

export const webhookKeys = {
  all: (project: string) => ["webhooks", project] as const,
  list: (project: string, cursor: string | null) => [...webhookKeys.all(project), cursor] as const,
};

export function webhooksQuery(project: string, cursor: string | null) {
  return queryOptions({
    queryKey: webhookKeys.list(project, cursor),
    queryFn: ({ signal }) => api.get(base(project), { signal, query: { cursor }, schema: lazySchema(webhooksFormSchemas, "webhookList") }),
  });
}

export const webhookMutations = {
  create: (project: string, body: CreateWebhookForm) => api.post(base(project), body, { schema: lazySchema(webhooksFormSchemas, "createdWebhook") }),
  remove: (project: string, id: string, confirmUrl?: string) =>
    apiFetch(`${base(project)}/${encodeURIComponent(id)}`, { method: "DELETE", body: confirmUrl ? { confirmUrl } : {}, schema: noContent }),
};
