import { messageListQuery, type MessageListQuery } from "@/lib/schemas/messages-index";

export const MESSAGE_URL_PARAMS = ["q", "status", "direction", "tag", "from", "to", "cursor"] as const;
type Param = (typeof MESSAGE_URL_PARAMS)[number];
export type MessageFilters = Partial<Record<Param, string>>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === "" ? undefined : v;
}

/**
 * The search from the URL. A malformed value (a hand-edited status, a stale cursor) is
 * dropped and reported, so a bad link still opens the screen.
 */
export function parseMessageParams(raw: Record<string, string | string[] | undefined>): { filters: MessageFilters; query: MessageListQuery; invalid: { param: string; message: string }[] } {
  const filters: MessageFilters = {};
  for (const key of MESSAGE_URL_PARAMS) {
    const v = first(raw[key]);
    if (v !== undefined) filters[key] = v;
  }
  const invalid: { param: string; message: string }[] = [];
  for (let round = 0; round < MESSAGE_URL_PARAMS.length; round++) {
    const result = messageListQuery.safeParse(filters);
    if (result.success) break;
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? "") as Param;
      if (filters[key] === undefined) continue;
      invalid.push({ param: key, message: issue.message });
      delete filters[key];
    }
  }
  if (filters.from && filters.to && new Date(filters.from) > new Date(filters.to)) {
    invalid.push({ param: "to", message: "must be after the start date" });
    delete filters.to;
  }
  return { filters, query: { ...filters } as MessageListQuery, invalid };
}
