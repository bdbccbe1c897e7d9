import "server-only";
import { domain, page, receivingState, type DomainStatus, type PageQuery } from "@/lib/schemas";
import { callService } from "../service-client";
import { seg } from "./path";

export const domains = {
  list: async (project: string, query: Partial<PageQuery> & { status?: DomainStatus } = {}) =>
    callService({ method: "GET", path: "/v1/domains", project, query, schema: page(domain) }),

  add: async (project: string, name: string) =>
    callService({ method: "POST", path: "/v1/domains", project, body: { domain: name }, schema: domain }),

  receiving: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/domains/${seg(id)}/receiving`, project, schema: receivingState }),
};
