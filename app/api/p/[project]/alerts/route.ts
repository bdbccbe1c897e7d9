import { projectSlug } from "@/lib/schemas/params";
import { getAlerts } from "@/lib/server/alerts/view";
import { route } from "@/lib/server/gate/route";

/** The project's alerts: where each metric stands, the history with its notifications, the settings. */
export const GET = route("overview:read", { params: { project: projectSlug } }, async ({ project }) => getAlerts(project));
