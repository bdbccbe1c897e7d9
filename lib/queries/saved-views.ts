import { api, lazySchema, noContent } from "@/lib/api-client";
import { apiRowsQuery } from "./builders";
import type { CreateSavedViewRequest, UpdateSavedViewRequest } from "@/lib/schemas/saved-views";

const savedViewSchemas = () => import("@/lib/schemas/saved-views");
const base = (project: string) => `/api/p/${encodeURIComponent(project)}/views`;

export const savedViewKeys = {
  all: (project: string) => ["saved-views", project] as const,
};

/** The reader's views and the project's shared ones (Messages' Views menu, Ctrl+K). */
export const savedViewsQuery = (project: string) => apiRowsQuery(savedViewKeys.all(project), base(project), lazySchema(savedViewSchemas, "savedViewList"));

export const savedViewMutations = {
  create: (project: string, body: CreateSavedViewRequest) => api.post(base(project), body, { schema: lazySchema(savedViewSchemas, "savedView") }),
  update: (project: string, id: string, body: UpdateSavedViewRequest) =>
    api.patch(`${base(project)}/${encodeURIComponent(id)}`, body, { schema: lazySchema(savedViewSchemas, "savedView") }),
  remove: (project: string, id: string) => api.delete(`${base(project)}/${encodeURIComponent(id)}`, { schema: noContent }),
};

/** Where a view opens: the Messages screen with its search in the URL. */
export const savedViewHref = (project: string, query: string) => `/p/${encodeURIComponent(project)}/messages${query ? `?${query}` : ""}`;
