import { previewRequest } from "@/lib/schemas/templates";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { previewTemplate } from "@/lib/server/templates/manage";

/** Rendering has no side effect: everyone who may view templates may preview drafts. */
export const POST = route("templates:read", { params: { project: projectSlug }, body: previewRequest }, async ({ body, project }) => previewTemplate(project, body));
