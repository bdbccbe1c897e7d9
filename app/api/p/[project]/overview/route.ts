import { z } from "zod";
import { getOverview, OVERVIEW_RANGES } from "@/lib/server/overview";
import { parseQuery, route } from "@/lib/server/route";

const query = z.object({ range: z.enum(OVERVIEW_RANGES, { error: "must be 24h, 7d or 30d" }).default("7d") });

export const GET = route<{ project: string }>("overview:read", async ({ req, project }) => getOverview(project, parseQuery(req, query).range));
