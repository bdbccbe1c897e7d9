import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { resubscribeContact } from "@/lib/server/contacts/manage";

export const POST = route<{ project: string; id: string }>("contacts:write", async ({ req, params, project, user }) =>
  resubscribeContact(project, user, params.id, await parseBody(req, z.unknown())),
);
