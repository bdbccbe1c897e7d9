import { activeAlerts } from "@/lib/server/alerts/view";
import { route } from "@/lib/server/route";

/** The alerts raised now: the banner on every screen of the project polls this. */
export const GET = route<{ project: string }>("overview:read", async ({ project }) => activeAlerts(project));
