/**
 * Bounds of one search, checked before any work: the route answers 400 naming `q` past either
 * (README, "Limits"). 500 characters hold any realistic query; 20 terms keep the statement's
 * conditions, and so the planner's work, small.
 */
export const SEARCH_QUERY_LIMITS = { maxLength: 500, maxTerms: 20 } as const;
