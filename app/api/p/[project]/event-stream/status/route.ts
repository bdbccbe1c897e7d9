import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { getStreamStatus } from "@/lib/server/event-stream/status";

/** The stream's health and mode (live or polling), for the webhooks screen. */
export const GET = route("webhooks:read", { params: { project: projectSlug } }, async ({ project }) => getStreamStatus(project));
