import { api, apiFetch, lazySchema, noContent } from "@/lib/api-client";
import { apiQuery, cursorListKeys } from "./builders";
import type { CreateWebhookForm } from "@/lib/schemas/webhooks-form";

const webhooksFormSchemas = () => import("@/lib/schemas/webhooks-form");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/webhooks`;

export const webhookKeys = cursorListKeys("webhooks");

export const webhooksQuery = (project: string, cursor: string | null) =>
  apiQuery(webhookKeys.list(project, cursor), base(project), lazySchema(webhooksFormSchemas, "webhookList"), { query: { cursor } });

export const webhookMutations = {
  create: (project: string, body: CreateWebhookForm) => api.post(base(project), body, { schema: lazySchema(webhooksFormSchemas, "createdWebhook") }),
  remove: (project: string, id: string, confirmUrl?: string) =>
    apiFetch(`${base(project)}/${encodeURIComponent(id)}`, { method: "DELETE", body: confirmUrl ? { confirmUrl } : {}, schema: noContent }),
};
