import { route } from "@/lib/server/route";
import { lookupContact } from "@/lib/server/contacts/manage";

export const GET = route<{ project: string; id: string }>("contacts:read", async ({ params, project }) => lookupContact(project, { id: params.id }));
