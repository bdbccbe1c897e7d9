import "server-only";
import type { DomainStatus } from "@/lib/schemas/domains";
import type { PageQuery } from "@/lib/schemas/common";
import { callService } from "./client";
import { pagedList } from "./page-size";
import { seg } from "./path";
import { domainReader, receivingReader } from "./readers";

const listDomains = pagedList<typeof domainReader, Partial<PageQuery> & { status?: DomainStatus }>("/v1/domains", domainReader, "domain");

export const domains = {
  /**
   * The status filter goes to the service and is applied again to what comes back, on the
   * status the dashboard shows (derived from the records when the service gives none): a
   * service may ignore the filter, or filter on a status its list items do not carry.
   */
  list: async (project: string, query: Partial<PageQuery> & { status?: DomainStatus } = {}) => {
    const page = await listDomains(project, query);
    return query.status ? { ...page, data: page.data.filter((d) => d.status === query.status) } : page;
  },

  add: async (project: string, name: string) =>
    callService({ method: "POST", path: "/v1/domains", project, body: { domain: name }, schema: domainReader }),

  receiving: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/domains/${seg(id)}/receiving`, project, schema: receivingReader }),
};
