import { route } from "@/lib/server/route";
import { lookupContact } from "@/lib/server/contacts/manage";

export const GET = route<{ project: string }>("contacts:read", async ({ req, project }) =>
  lookupContact(project, Object.fromEntries(new URL(req.url).searchParams)),
);
