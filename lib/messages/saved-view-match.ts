import { SAVED_VIEW_PARAMS } from "@/lib/schemas/saved-views";
import { SEARCH_QUERY_LIMITS } from "./search-query/limits";
import { tokenize } from "./search-query/tokenize";

/**
 * A search as a comparable key, so the Views menu knows the open search is a view (to rename,
 * share or delete it) however its URL spells it: the view's parameters only (a cursor or any
 * other parameter is not part of a search), in one order, whatever their encoding (`+` or
 * `%20`), an empty one as absent; `q` by its terms — field names in lower case, spaces and
 * the terms' order not counting (the terms all apply together); times as the instant they name.
 */
export function searchKey(search: string | URLSearchParams): string {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const parts: [string, string][] = [];
  for (const key of SAVED_VIEW_PARAMS) {
    const value = params.get(key)?.trim();
    if (value) parts.push([key, normalise(key, value)]);
  }
  return JSON.stringify(parts);
}

export const sameSearch = (a: string | URLSearchParams, b: string | URLSearchParams) => searchKey(a) === searchKey(b);

function normalise(key: (typeof SAVED_VIEW_PARAMS)[number], value: string): string {
  if (key === "q") {
    const { tokens, more } = tokenize(value, SEARCH_QUERY_LIMITS.maxTerms);
    // Past the limit the search is refused anyway: compared as written.
    if (more) return value;
    return tokens
      .map((t) => `${t.negated ? "-" : ""}${t.key ? `${t.key}:` : ""}${t.quoted ? `"${t.value}"` : t.value}`)
      .sort()
      .join(" ");
  }
  if (key === "from" || key === "to") {
    const at = Date.parse(value);
    return Number.isNaN(at) ? value : new Date(at).toISOString();
  }
  return value;
}

/** The view the open search is, among those the reader may change (their own first), or null. */
export function openView<V extends { query: string; canManage: boolean; mine: boolean }>(views: readonly V[] | undefined, search: string | URLSearchParams): V | null {
  const key = searchKey(search);
  const matching = (views ?? []).filter((v) => v.canManage && searchKey(v.query) === key);
  return matching.find((v) => v.mine) ?? matching[0] ?? null;
}
