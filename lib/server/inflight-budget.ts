import "server-only";

/**
 * Bytes of request bodies held at once in this process, counted per pool: the ingest's
 * deliveries ("ingest", lib/server/event-stream) and each client address's share of those
 * ("ingest@<address>"), every other request body ("requests") and each address's share of
 * those ("requests@<address>", lib/server/request-body-limits.ts). Another request holds what
 * it declared (Content-Length) up front; a delivery MIN_HOLD_BYTES up front and then what has
 * arrived (a declared length costs a stranger nothing to write). One that would take a pool
 * past its limit is refused instead of read. Its hold is given back when its answer is ready.
 * On globalThis, so every bundle counts in one place.
 */
export type Pool = { name: string; limit: number };

export type Hold = {
  /**
   * Holds `total` bytes for this request in all (never less than before), in every pool of
   * the hold at once: null when they fit, else the first pool they do not fit (nothing grown).
   */
  grow(total: number): Pool | null;
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
 * A new hold of nothing yet in each of `of` (a total and an address's share of it). A pool
 * that holds nothing is forgotten, so pools per address do not pile up.
 */
export function holdBytes(of: readonly Pool[]): Hold {
  const all = pools();
  let mine = 0;
  let released = false;
  const add = (name: string, bytes: number) => {
    const held = (all.get(name) ?? 0) + bytes;
    if (held > 0) all.set(name, held);
    else all.delete(name);
  };
  return {
    grow(total) {
      if (released) return of[0] ?? null;
      if (total <= mine) return null;
      const more = total - mine;
      const full = of.find((p) => (all.get(p.name) ?? 0) + more > p.limit);
      if (full) return full;
      for (const p of of) add(p.name, more);
      mine = total;
      return null;
    },
    release() {
      if (released) return;
      released = true;
      for (const p of of) add(p.name, -mine);
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
