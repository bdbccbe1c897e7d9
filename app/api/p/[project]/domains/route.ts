import { z } from "zod";
import { domainStatus, pageQuery } from "@/lib/schemas";
import { addDomain, listDomains } from "@/lib/server/domains/manage";
import { parseBody, parseQuery, route } from "@/lib/server/route";

const query = pageQuery.extend({ status: domainStatus.optional() });

export const GET = route<{ project: string }>("domains:read", async ({ req, project }) => listDomains(project, parseQuery(req, query)));

export const POST = route<{ project: string }>("domains:write", async ({ req, user, project }) =>
  Response.json(await addDomain(user, project, await parseBody(req, z.unknown())), { status: 201 }),
);
