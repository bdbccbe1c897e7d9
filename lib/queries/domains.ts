import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { Domain, DomainStatus, Page, ReceivingState } from "@/lib/schemas";
import type { RecordCheck } from "@/lib/domains/dns-check";

export type DomainDetail = { domain: Domain; receiving: ReceivingState | null; receivingError: string | null };
export type DomainCheck = { checkedAt: string; resolver: string; records: RecordCheck[] };

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
    queryFn: ({ signal }) => api.get<Page<Domain>>(base(project), { signal, query: { status, cursor } }),
  });
}

export function domainQuery(project: string, id: string) {
  return queryOptions({
    queryKey: domainKeys.detail(project, id),
    queryFn: ({ signal }) => api.get<DomainDetail>(`${base(project)}/${encodeURIComponent(id)}`, { signal }),
  });
}

export function domainCheckQuery(project: string, id: string) {
  return queryOptions({
    queryKey: domainKeys.check(project, id),
    queryFn: ({ signal }) => api.get<DomainCheck>(`${base(project)}/${encodeURIComponent(id)}/check`, { signal }),
  });
}

export const domainMutations = {
  add: (project: string, domain: string) => api.post<Domain>(base(project), { domain }),
};
