import { pageQuery } from "@/lib/schemas/common";
import { projectSlug } from "@/lib/schemas/params";
import { createWebhookForm } from "@/lib/schemas/webhooks-form";
import { parseQuery, route } from "@/lib/server/gate/route";
import { createWebhook, listWebhooks } from "@/lib/server/webhooks";

export const GET = route("webhooks:read", { params: { project: projectSlug } }, async ({ req, project }) => listWebhooks(project, parseQuery(req, pageQuery)));

/** Answers the one-time signing secret; every response of `route` is `Cache-Control: no-store`. */
export const POST = route("webhooks:write", { params: { project: projectSlug }, body: createWebhookForm }, async ({ body, user, project }) =>
  Response.json(await createWebhook(user, project, body), { status: 201 }),
);
