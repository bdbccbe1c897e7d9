import { route } from "@/lib/server/route";
import { connectEventStream, getEventStream } from "@/lib/server/event-stream/connect";

/** Is the message index receiving this project's events? */
export const GET = route<{ project: string }>("messages:read", async ({ project }) => getEventStream(project.id));

/** "Connect event stream": creates the dashboard's webhook on the service (admins). */
export const POST = route<{ project: string }>("webhooks:write", async ({ project, user }) => connectEventStream(project, user));
