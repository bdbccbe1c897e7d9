import { route } from "@/lib/server/route";
import { getStreamStatus } from "@/lib/server/event-stream/status";

/** The stream's health and mode (live or polling), for the webhooks screen. */
export const GET = route<{ project: string }>("webhooks:read", async ({ project }) => getStreamStatus(project));
