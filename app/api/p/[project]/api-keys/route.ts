import { z } from "zod";
import { createApiKey, listApiKeys } from "@/lib/server/api-keys";
import { parseBody, route } from "@/lib/server/route";

export const GET = route<{ project: string }>("api_keys:write", async ({ project }) => listApiKeys(project));

/** Answers the one-time secret; `route` marks every response `Cache-Control: no-store`. */
export const POST = route<{ project: string }>("api_keys:write", async ({ req, user, project }) =>
  Response.json(await createApiKey(user, project, await parseBody(req, z.unknown())), { status: 201 }),
);
