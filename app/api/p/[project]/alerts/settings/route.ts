import { alertSettingsForm } from "@/lib/schemas/alerts";
import { projectSlug } from "@/lib/schemas/params";
import { updateAlertSettings } from "@/lib/server/alerts/settings";
import { route } from "@/lib/server/gate/route";

/** Thresholds and webhook of the project's alerts (admins). A webhook set for the first time answers its signing secret, once. */
export const PUT = route("alerts:write", { params: { project: projectSlug }, body: alertSettingsForm }, async ({ body, user, project }) => updateAlertSettings(user, project, body));
