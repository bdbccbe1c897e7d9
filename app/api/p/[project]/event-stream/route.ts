import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { connectEventStream, getEventStream } from "@/lib/server/event-stream/connect";

/** Is the message index receiving this project's events? */
export const GET = route("messages:read", { params: { project: projectSlug } }, async ({ project }) => getEventStream(project.id));

/** "Connect event stream": creates the dashboard's webhook on the service (admins). */
export const POST = route("webhooks:write", { params: { project: projectSlug } }, async ({ project, user }) => connectEventStream(project, user));
