import { createApiKeyForm } from "@/lib/schemas/api-keys-form";
import { projectSlug } from "@/lib/schemas/params";
import { createApiKey, listApiKeys } from "@/lib/server/api-keys";
import { route } from "@/lib/server/gate/route";

export const GET = route("api_keys:write", { params: { project: projectSlug } }, async ({ project }) => listApiKeys(project));

/** Answers the one-time secret; `route` marks every response `Cache-Control: no-store`. */
export const POST = route("api_keys:write", { params: { project: projectSlug }, body: createApiKeyForm }, async ({ body, user, project }) =>
  Response.json(await createApiKey(user, project, body), { status: 201 }),
);
