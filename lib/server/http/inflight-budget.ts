import "server-only";

/**
 * Bytes of request bodies held at once in this process, counted per pool, for two budgets: the
 * ingest's deliveries ("ingest", lib/server/event-stream) and every other request body
 * ("requests", lib/server/http/request-body-limits.ts), both held the one way (holdBody below). A
 * body holds MIN_HOLD_BYTES from its headers on and then what has arrived, never what it
 * declares (a declared length costs a stranger nothing to write). A chunk that would take a
 * pool past its limit is refused instead of read, and its request answered 429 naming the
 * limit. Its hold is given back when its answer is ready. On globalThis, so every bundle
 * counts in one place.
 *
 * Each budget keeps a slice for small bodies (declared at most SMALL_BODY_BYTES: a sign-in, an
 * ordinary JSON write, a delivery of the service, all a few KB) that larger bodies, and bodies
 * of unknown length, cannot use: so strangers holding large bodies open, however many, never
 * starve the small requests everybody needs. Pools of a budget `b`:
 * - `b`: every body, at most `total`;
 * - `b-large`: large bodies, at most `total - reserved`;
 * - `b@<address>`: one client address's large bodies (`perAddress`);
 * - `b-small@<address>`: one client address's small bodies (`smallPerAddress`), so no address
 *   takes the reserved slice alone.
 * A small body may use all of `total`; a large one never its last `reserved` bytes.
 */
export type PoolKind = "total" | "large" | "address" | "small-address";
export type Pool = { name: string; limit: number; kind: PoolKind };

/** A body declared at most this long is small (see above); a larger one, or one of unknown length, is large. */
export const SMALL_BODY_BYTES = 64 * 1024;

export type BodyBudget = { name: string; total: number; reserved: number; perAddress: number; smallPerAddress: number };

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
function holdBytes(of: readonly Pool[]): Hold {
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

/** The pools a body from `address` (its network, lib/net/ip-ranges.ts) declaring `declared` bytes (null: unknown) holds in. */
export function bodyPools(budget: BodyBudget, address: string, declared: number | null): Pool[] {
  const total: Pool = { name: budget.name, limit: budget.total, kind: "total" };
  if (declared !== null && declared <= SMALL_BODY_BYTES) {
    return [total, { name: `${budget.name}-small@${address}`, limit: budget.smallPerAddress, kind: "small-address" }];
  }
  // The address's share before the large bodies' part: a 429 names the address's own limit when it met it.
  return [total, { name: `${budget.name}@${address}`, limit: budget.perAddress, kind: "address" }, { name: `${budget.name}-large`, limit: budget.total - budget.reserved, kind: "large" }];
}

/**
 * A body's hold, MIN_HOLD_BYTES of it taken at once: the hold, or the pool that had no room
 * (nothing held then). The caller grows it to what has arrived as each chunk comes, and
 * releases it once the answer is ready.
 */
export function holdBody(budget: BodyBudget, address: string, declared: number | null): { hold: Hold; full: null } | { hold: null; full: Pool } {
  const hold = holdBytes(bodyPools(budget, address, declared));
  const full = hold.grow(MIN_HOLD_BYTES);
  if (!full) return { hold, full: null };
  hold.release();
  return { hold: null, full };
}

/** Bytes held right now in `pool` (tests; the abuse suite's figures). */
export function bytesInFlight(pool = "ingest"): number {
  return pools().get(pool) ?? 0;
}

/** How many pools hold something (tests: per-address pools are forgotten once empty). */
export function poolsInUse(): number {
  return pools().size;
}
