import { route } from "@/lib/server/route";
import { getTemplate } from "@/lib/server/templates/manage";

export const GET = route<{ project: string; id: string }>("templates:read", async ({ params, project }) => getTemplate(project, params.id));
