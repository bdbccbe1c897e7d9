import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { CreateContactRequest } from "@/lib/schemas/contacts";

const contactsSchemas = () => import("@/lib/schemas/contacts");
const contactsFormSchemas = () => import("@/lib/schemas/contacts-form");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/contacts`;

export const contactKeys = {
  all: (project: string) => ["contacts", project] as const,
  search: (project: string, q: string, page: number) => [...contactKeys.all(project), "search", q, page] as const,
  one: (project: string, id: string) => [...contactKeys.all(project), "one", id] as const,
};

export function contactSearchQuery(project: string, q: string, page: number) {
  return apiQuery(contactKeys.search(project, q, page), base(project), lazySchema(contactsFormSchemas, "contactSearchPage"), { query: { q, page } }, { placeholderData: (prev) => prev });
}

export function contactQuery(project: string, id: string) {
  return apiQuery(contactKeys.one(project, id), `${base(project)}/${encodeURIComponent(id)}`, lazySchema(contactsSchemas, "contact"));
}

export const contactMutations = {
  create: (project: string, body: CreateContactRequest) => api.post(base(project), body, { schema: lazySchema(contactsSchemas, "contact") }),
  lookup: (project: string, by: { id?: string; email?: string }) => api.get(`${base(project)}/lookup`, { query: by, schema: lazySchema(contactsSchemas, "contact") }),
  resubscribe: (project: string, id: string, reason: string) => api.post(`${base(project)}/${encodeURIComponent(id)}/resubscribe`, { reason }, { schema: lazySchema(contactsSchemas, "contact") }),
};
