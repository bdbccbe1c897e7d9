import { updateAlertSettings } from "@/lib/server/alerts/settings";
import { parseBody, route } from "@/lib/server/route";
import { alertSettingsForm } from "@/lib/schemas/alerts";

/** Thresholds and webhook of the project's alerts (admins). A webhook set for the first time answers its signing secret, once. */
export const PUT = route<{ project: string }>("alerts:write", async ({ req, user, project }) => updateAlertSettings(user, project, await parseBody(req, alertSettingsForm)));
