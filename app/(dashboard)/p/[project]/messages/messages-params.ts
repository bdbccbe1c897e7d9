import { messageListQuery } from "@/lib/schemas/messages-index";
import { parseUrlFilters } from "@/components/common/url-filters";

/** The URL parameters of the message search; each is the query field of the same name. */
export const MESSAGE_URL_PARAMS = { q: "q", status: "status", direction: "direction", tag: "tag", from: "from", to: "to", cursor: "cursor" } as const;

export type MessageFilters = Partial<Record<keyof typeof MESSAGE_URL_PARAMS, string>>;

/** The search from the URL; a malformed value (a hand-edited status, a stale cursor) is dropped and listed in `invalid`. */
export function parseMessageParams(raw: Record<string, string | string[] | undefined>) {
  return parseUrlFilters(raw, MESSAGE_URL_PARAMS, messageListQuery);
}
