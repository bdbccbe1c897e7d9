import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { Contact, CreateContactRequest } from "@/lib/schemas/contacts";

export type IndexedContactView = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscribed: boolean;
  unsubscribedAt: string | null;
  source: string;
  createdAt: string;
  seenAt: string;
};

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/contacts`;

export const contactKeys = {
  all: (project: string) => ["contacts", project] as const,
  search: (project: string, q: string, page: number) => [...contactKeys.all(project), "search", q, page] as const,
  one: (project: string, id: string) => [...contactKeys.all(project), "one", id] as const,
};

export function contactSearchQuery(project: string, q: string, page: number) {
  return queryOptions({
    queryKey: contactKeys.search(project, q, page),
    queryFn: ({ signal }) => api.get<{ data: IndexedContactView[]; total: number }>(base(project), { signal, query: { q, page } }),
    placeholderData: (prev) => prev,
  });
}

export function contactQuery(project: string, id: string) {
  return queryOptions({
    queryKey: contactKeys.one(project, id),
    queryFn: ({ signal }) => api.get<Contact>(`${base(project)}/${encodeURIComponent(id)}`, { signal }),
  });
}

export const contactMutations = {
  create: (project: string, body: CreateContactRequest) => api.post<Contact>(base(project), body),
  lookup: (project: string, by: { id?: string; email?: string }) => api.get<Contact>(`${base(project)}/lookup`, { query: by }),
  resubscribe: (project: string, id: string, reason: string) => api.post<Contact>(`${base(project)}/${encodeURIComponent(id)}/resubscribe`, { reason }),
};
