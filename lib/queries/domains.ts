import { queryOptions } from "@tanstack/react-query";
import { api, lazySchema } from "@/lib/api-client";
import type { DomainStatus } from "@/lib/schemas/domains";

const domainsSchemas = () => import("@/lib/schemas/domains");
const domainsViewSchemas = () => import("@/lib/schemas/domains-view");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/domains`;

export const domainKeys = {
  all: (project: string) => ["domains", project] as const,
  list: (project: string, status: DomainStatus | null, cursor: string | null) => [...domainKeys.all(project), "list", status, cursor] as const,
  detail: (project: string, id: string) => [...domainKeys.all(project), "detail", id] as const,
  check: (project: string, id: string) => [...domainKeys.all(project), "check", id] as const,
};

export function domainsQuery(project: string, status: DomainStatus | null, cursor: string | null) {
  return queryOptions({
    queryKey: domainKeys.list(project, status, cursor),
    queryFn: ({ signal }) => api.get(base(project), { signal, query: { status, cursor }, schema: lazySchema(domainsViewSchemas, "domainList") }),
  });
}

export function domainQuery(project: string, id: string) {
  return queryOptions({
    queryKey: domainKeys.detail(project, id),
    queryFn: ({ signal }) => api.get(`${base(project)}/${encodeURIComponent(id)}`, { signal, schema: lazySchema(domainsViewSchemas, "domainDetail") }),
  });
}

export function domainCheckQuery(project: string, id: string) {
  return queryOptions({
    queryKey: domainKeys.check(project, id),
    queryFn: ({ signal }) => api.get(`${base(project)}/${encodeURIComponent(id)}/check`, { signal, schema: lazySchema(domainsViewSchemas, "domainCheck") }),
  });
}

export const domainMutations = {
  add: (project: string, name: string) => api.post(base(project), { domain: name }, { schema: lazySchema(domainsSchemas, "domain") }),
};
