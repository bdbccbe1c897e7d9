import { auditQuery } from "@/lib/schemas/audit";
import { listAudit } from "@/lib/server/audit";
import { parseQuery, route } from "@/lib/server/gate/route";

/** `?q&action&actorId&project&outcome&from&to&cursor&limit` → `{ data, nextCursor }`, newest first. */
export const GET = route("audit:read", async ({ req }) => listAudit(parseQuery(req, auditQuery)));
