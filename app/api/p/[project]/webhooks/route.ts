import { z } from "zod";
import { pageQuery } from "@/lib/schemas";
import { parseBody, parseQuery, route } from "@/lib/server/route";
import { createWebhook, listWebhooks } from "@/lib/server/webhooks";

export const GET = route<{ project: string }>("webhooks:read", async ({ req, project }) => listWebhooks(project, parseQuery(req, pageQuery)));

/** Answers the one-time signing secret; every response of `route` is `Cache-Control: no-store`. */
export const POST = route<{ project: string }>("webhooks:write", async ({ req, user, project }) =>
  Response.json(await createWebhook(user, project, await parseBody(req, z.unknown())), { status: 201 }),
);
