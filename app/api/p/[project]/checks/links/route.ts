import { linkCheckRequest } from "@/lib/schemas/presend";
import { parseBody, route } from "@/lib/server/route";
import { linkReachability } from "@/lib/server/presend/checks";

/** Follows a draft's links from the server, to public addresses only, with a timeout and a bound; one check at a time per user. */
export const POST = route<{ project: string }>("messages:send", async ({ req, user }) => linkReachability(await parseBody(req, linkCheckRequest), { userId: user.id }));
