import { contactLookupQuery } from "@/lib/schemas/contacts-form";
import { projectSlug } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { lookupContact } from "@/lib/server/contacts/manage";

export const GET = route("contacts:read", { params: { project: projectSlug } }, async ({ req, project }) => lookupContact(project, parseQuery(req, contactLookupQuery)));
