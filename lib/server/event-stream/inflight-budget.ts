import "server-only";

/**
 * Bytes of delivery bodies held at once across every ingest request of this process (the
 * fast path and the route: one budget, on globalThis, whichever bundle counts). Each request
 * holds what it declared (Content-Length) up front, or, chunked, what has arrived so far; a
 * request that would take the total past the limit is refused instead of read. Its hold is
 * given back when its answer is ready.
 */
export type Hold = {
  /** Holds `total` bytes for this request in all (never less than before); false when they do not fit. */
  grow(total: number): boolean;
  release(): void;
};

type Budget = { held: number };

const KEY = Symbol.for("mail-dashboard.ingest-inflight-bytes");
function budget(): Budget {
  const holder = globalThis as { [KEY]?: Budget };
  return (holder[KEY] ??= { held: 0 });
}

/** A new hold of nothing yet, or null when the budget is already spent (no room for even one byte). */
export function holdBytes(limit: number): Hold | null {
  const b = budget();
  if (b.held >= limit) return null;
  let mine = 0;
  let released = false;
  return {
    grow(total) {
      if (released) return false;
      if (total <= mine) return true;
      if (b.held + (total - mine) > limit) return false;
      b.held += total - mine;
      mine = total;
      return true;
    },
    release() {
      if (released) return;
      released = true;
      b.held -= mine;
      mine = 0;
    },
  };
}

/** Bytes held right now (tests; the abuse suite's figures). */
export function bytesInFlight(): number {
  return budget().held;
}
