import { decodeParam } from "@/lib/http/decode-param";
import { pageQuery } from "@/lib/schemas/common";
import { parseQuery, route } from "@/lib/server/route";
import { getRecipient } from "@/lib/server/messages/recipient";

/** One address: its messages both ways and its suppression. */
export const GET = route<{ project: string; email: string }>("messages:read", async ({ req, params, project }) =>
  getRecipient(project, decodeParam(params.email), parseQuery(req, pageQuery)),
);
