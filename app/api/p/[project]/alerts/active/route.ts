import { projectSlug } from "@/lib/schemas/params";
import { activeAlerts } from "@/lib/server/alerts/view";
import { route } from "@/lib/server/gate/route";

/** The alerts raised now: the banner on every screen of the project polls this. */
export const GET = route("overview:read", { params: { project: projectSlug } }, async ({ project }) => activeAlerts(project));
