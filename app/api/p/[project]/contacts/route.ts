import { createContactRequest } from "@/lib/schemas/contacts";
import { contactSearchQuery } from "@/lib/schemas/contacts-form";
import { projectSlug } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { createContact, searchContacts } from "@/lib/server/contacts/manage";

/** The dashboard's index of contacts (the interface cannot list them). */
export const GET = route("contacts:read", { params: { project: projectSlug } }, async ({ req, project }) => {
  const { q, page } = parseQuery(req, contactSearchQuery);
  return searchContacts(project, q, page);
});

export const POST = route("contacts:write", { params: { project: projectSlug }, body: createContactRequest }, async ({ body, project, user }) =>
  Response.json(await createContact(project, user, body), { status: 201 }),
);
