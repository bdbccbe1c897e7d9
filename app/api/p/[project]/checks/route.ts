import { presendRequest } from "@/lib/schemas/presend";
import { parseBody, route } from "@/lib/server/route";
import { presendChecks } from "@/lib/server/presend/checks";

/**
 * Pre-send checks of a draft: nothing is sent or stored. Everyone who may compose may check
 * (messages:send also covers every role that edits templates or sends batches). One check at
 * a time per user, in a worker thread, within PRESEND_TIMEOUT_MS.
 */
export const POST = route<{ project: string }>("messages:send", async ({ req, user }) =>
  presendChecks(await parseBody(req, presendRequest), { userId: user.id, signal: req.signal }),
);
