import { domainInput } from "@/lib/domains/hostname";
import { domainsPageQuery } from "@/lib/schemas/domains-view";
import { projectSlug } from "@/lib/schemas/params";
import { addDomain, listDomains } from "@/lib/server/domains/manage";
import { parseQuery, route } from "@/lib/server/gate/route";

export const GET = route("domains:read", { params: { project: projectSlug } }, async ({ req, project }) => listDomains(project, parseQuery(req, domainsPageQuery)));

/** The add-domain form's own schema (IDN names converted): the route is callable directly. */
export const POST = route("domains:write", { params: { project: projectSlug }, body: domainInput }, async ({ body, user, project }) =>
  Response.json(await addDomain(user, project, body), { status: 201 }),
);
