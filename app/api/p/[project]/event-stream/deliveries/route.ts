import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { listDeliveries } from "@/lib/server/event-stream/delivery-log";

/** What reached the event stream: the project's newest deliveries and what was done with each (the webhooks screen). */
export const GET = route("webhooks:read", { params: { project: projectSlug } }, async ({ project }) => listDeliveries(project));
