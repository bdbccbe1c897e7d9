import { z } from "zod";
import { decodeParam } from "@/lib/http/decode-param";
import { parseBody, route } from "@/lib/server/route";
import { eraseRecipient } from "@/lib/server/retention/erase";

/** Erases one address's data from the dashboard's own records; the body repeats the address. */
export const POST = route<{ project: string; email: string }>("recipients:erase", async ({ req, params, project, user }) =>
  eraseRecipient(project, user, decodeParam(params.email), await parseBody(req, z.unknown())),
);
