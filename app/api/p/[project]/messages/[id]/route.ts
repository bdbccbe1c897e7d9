import { messageReadRoute } from "@/lib/server/messages/read-route";

/** One message with its events; see `messageReadRoute` (the fast path answers most before Next). */
export const GET = messageReadRoute;
