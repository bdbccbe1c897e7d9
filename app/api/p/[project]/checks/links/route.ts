import { projectSlug } from "@/lib/schemas/params";
import { linkCheckRequest } from "@/lib/schemas/presend";
import { route } from "@/lib/server/gate/route";
import { linkReachability } from "@/lib/server/presend/checks";

/** Follows a draft's links from the server, to public addresses only, with a timeout and a bound; one check at a time per user. */
export const POST = route("messages:send", { params: { project: projectSlug }, body: linkCheckRequest }, async ({ body, user }) => linkReachability(body, { userId: user.id }));
