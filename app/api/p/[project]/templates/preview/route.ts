import { parseBody, route } from "@/lib/server/route";
import { previewRequest } from "@/lib/schemas";
import { previewTemplate } from "@/lib/server/templates/manage";

/** Rendering has no side effect: everyone who may view templates may preview drafts. */
export const POST = route<{ project: string }>("templates:read", async ({ req, project }) => previewTemplate(project, await parseBody(req, previewRequest)));
