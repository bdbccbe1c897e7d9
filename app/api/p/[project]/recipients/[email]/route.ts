import { pageQuery } from "@/lib/schemas/common";
import { emailParam, projectSlug } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { getRecipient } from "@/lib/server/messages/recipient";

/** One address: its messages both ways and its suppression. */
export const GET = route("messages:read", { params: { project: projectSlug, email: emailParam } }, async ({ req, params, project }) =>
  getRecipient(project, params.email, parseQuery(req, pageQuery)),
);
