import { projectSlug } from "@/lib/schemas/params";
import { presendRequest } from "@/lib/schemas/presend";
import { route } from "@/lib/server/gate/route";
import { presendChecks } from "@/lib/server/presend/checks";

/**
 * Pre-send checks of a draft: nothing is sent or stored. Everyone who may compose may check
 * (messages:send also covers every role that edits templates or sends batches). One check at
 * a time per user, in a worker thread, within PRESEND_TIMEOUT_MS.
 */
export const POST = route("messages:send", { params: { project: projectSlug }, body: presendRequest }, async ({ req, body, user }) =>
  presendChecks(body, { userId: user.id, signal: req.signal }),
);
