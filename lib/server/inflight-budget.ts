import "server-only";

/**
 * Bytes of request bodies held at once in this process, counted per pool: the ingest's
 * deliveries ("ingest", lib/server/event-stream), every other request body ("requests"), and
 * each client address's share of those ("requests@<address>", lib/server/request-body-limits.ts).
 * A request holds what it declared (Content-Length) up front, or, chunked, what has arrived so
 * far; one that would take its pool past the limit is refused instead of read. Its hold is
 * given back when its answer is ready. On globalThis, so every bundle counts in one place.
 */
export type Hold = {
  /** Holds `total` bytes for this request in all (never less than before); false when they do not fit. */
  grow(total: number): boolean;
  release(): void;
};

/**
 * What any request with a body holds, however small: about what its connection costs in
 * buffers. So a budget also bounds the requests under way at once (8 MB / 16 KB = 512
 * deliveries), and senders that declare little and send nothing cannot pile up without bound.
 */
export const MIN_HOLD_BYTES = 16 * 1024;

type Pools = Map<string, number>;

const KEY = Symbol.for("mail-dashboard.inflight-bytes");
function pools(): Pools {
  const holder = globalThis as { [KEY]?: Pools };
  return (holder[KEY] ??= new Map());
}

/**
 * A new hold of nothing yet in `pool`, or null when the pool is already spent (no room for
 * even one byte). A pool that holds nothing is forgotten, so pools per address do not pile up.
 */
export function holdBytes(limit: number, pool = "ingest"): Hold | null {
  const all = pools();
  if ((all.get(pool) ?? 0) >= limit) return null;
  let mine = 0;
  let released = false;
  const set = (held: number) => (held > 0 ? all.set(pool, held) : all.delete(pool));
  return {
    grow(total) {
      if (released) return false;
      if (total <= mine) return true;
      const held = all.get(pool) ?? 0;
      if (held + (total - mine) > limit) return false;
      set(held + total - mine);
      mine = total;
      return true;
    },
    release() {
      if (released) return;
      released = true;
      set((all.get(pool) ?? 0) - mine);
      mine = 0;
    },
  };
}

/** Bytes held right now in `pool` (tests; the abuse suite's figures). */
export function bytesInFlight(pool = "ingest"): number {
  return pools().get(pool) ?? 0;
}

/** How many pools hold something (tests: per-address pools are forgotten once empty). */
export function poolsInUse(): number {
  return pools().size;
}
