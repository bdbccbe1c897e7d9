import { rangeQuery } from "@/lib/schemas/overview";
import { projectSlug } from "@/lib/schemas/params";
import { getDeliverability } from "@/lib/server/alerts/deliverability";
import { parseQuery, route } from "@/lib/server/gate/route";

/** Sent, delivered, bounced, complained and opened per mailbox provider over a period, flagged where one stands out. */
export const GET = route("overview:read", { params: { project: projectSlug } }, async ({ req, project }) => getDeliverability(project, parseQuery(req, rangeQuery).range));
