import { api, lazySchema } from "@/lib/api-client";
import { apiQuery } from "./builders";
import type { DomainStatus } from "@/lib/schemas/domains";

const domainsSchemas = () => import("@/lib/schemas/domains");
const domainsViewSchemas = () => import("@/lib/schemas/domains-view");
const dmarcSchemas = () => import("@/lib/schemas/dmarc");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/domains`;

export const domainKeys = {
  all: (project: string) => ["domains", project] as const,
  list: (project: string, status: DomainStatus | null, cursor: string | null) => [...domainKeys.all(project), "list", status, cursor] as const,
  detail: (project: string, id: string) => [...domainKeys.all(project), "detail", id] as const,
  check: (project: string, id: string) => [...domainKeys.all(project), "check", id] as const,
  dmarc: (project: string, id: string) => [...domainKeys.all(project), "dmarc", id] as const,
};

export const domainsQuery = (project: string, status: DomainStatus | null, cursor: string | null) =>
  apiQuery(domainKeys.list(project, status, cursor), base(project), lazySchema(domainsViewSchemas, "domainList"), { query: { status, cursor } });

export const domainQuery = (project: string, id: string) =>
  apiQuery(domainKeys.detail(project, id), `${base(project)}/${encodeURIComponent(id)}`, lazySchema(domainsViewSchemas, "domainDetail"));

export const domainCheckQuery = (project: string, id: string) =>
  apiQuery(domainKeys.check(project, id), `${base(project)}/${encodeURIComponent(id)}/check`, lazySchema(domainsViewSchemas, "domainCheck"));

/** The domain's DMARC reports: asked for only when the screen's DMARC section is opened. */
export const domainDmarcQuery = (project: string, id: string) =>
  apiQuery(domainKeys.dmarc(project, id), `${base(project)}/${encodeURIComponent(id)}/dmarc`, lazySchema(dmarcSchemas, "dmarcView"));

export const domainMutations = {
  add: (project: string, name: string) => api.post(base(project), { domain: name }, { schema: lazySchema(domainsSchemas, "domain") }),
};
