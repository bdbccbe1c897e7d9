/**
 * One recorded exchange with a real implementation of the interface: what was asked and
 * what it answered, byte for byte (the body as text), with the headers a client reads.
 * Written by record-answers.ts, replayed to the dashboard's service client by
 * lib/server/service/recorded-answers.test.ts.
 */
export interface RecordedExchange {
  name: string;
  implementation: "bundled" | "contrarian";
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: {
    status: number;
    /** content-type, retry-after and the like; lower-case names. */
    headers: Record<string, string>;
    body: string;
  };
  /** For a Retry-After given as an HTTP date: how far past the answer's own Date it pointed, so a replay can point as far ahead. */
  retryAfterMs?: number;
}

/** Headers worth keeping: what a client may read. Dates and request ids change every run. */
export const KEPT_HEADERS = ["content-type", "retry-after", "location", "idempotent-replayed", "idempotent-replay"];

export const IMPLEMENTATIONS = ["bundled", "contrarian"] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];
