import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { checkBatch } from "@/lib/server/batches/jobs";

/** Every row checked (addresses, suppressions, the send itself) without storing or sending anything. */
export const POST = route<{ project: string }>("batches:send", async ({ req, project, user }) => checkBatch(project, user, await parseBody(req, z.unknown())));
