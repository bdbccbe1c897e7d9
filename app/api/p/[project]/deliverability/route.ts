import { z } from "zod";
import { DELIVERABILITY_RANGES } from "@/lib/schemas/deliverability";
import { getDeliverability } from "@/lib/server/alerts/deliverability";
import { parseQuery, route } from "@/lib/server/route";

const query = z.object({ range: z.enum(DELIVERABILITY_RANGES, { error: "must be 24h, 7d or 30d" }).default("7d") });

/** Sent, delivered, bounced, complained and opened per mailbox provider over a period, flagged where one stands out. */
export const GET = route<{ project: string }>("overview:read", async ({ req, project }) => getDeliverability(project, parseQuery(req, query).range));
