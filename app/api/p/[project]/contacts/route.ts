import { z } from "zod";
import { parseBody, parseQuery, route } from "@/lib/server/route";
import { contactSearchQuery } from "@/lib/schemas/contacts-form";
import { createContact, searchContacts } from "@/lib/server/contacts/manage";

/** The dashboard's index of contacts (the interface cannot list them). */
export const GET = route<{ project: string }>("contacts:read", async ({ req, project }) => {
  const { q, page } = parseQuery(req, contactSearchQuery);
  return searchContacts(project, q, page);
});

export const POST = route<{ project: string }>("contacts:write", async ({ req, project, user }) =>
  Response.json(await createContact(project, user, await parseBody(req, z.unknown())), { status: 201 }),
);
