import { writeEpoch } from "./write-epoch";

/**
 * A background poller's "is anything due?", answered without the database while the answer
 * cannot have changed.
 *
 * A poller that claims its work with an UPDATE writes even when it finds nothing, and an idle
 * server's pollers kept PGlite busy that way several times a second (the dashboard about 16
 * statements a second, the local service's job claim five times a second). With a gate, a
 * poller first asks a read-only `probe` how long until work falls due, and claims only when that
 * time has come. On a database this process alone writes (PGlite: `watched`), the answer holds
 * until either the next write reaches it (./write-epoch.ts counts every write, whoever made
 * it) or the time it named comes: until then `due()` answers false without a query. Nothing
 * becomes due otherwise, as long as the probe reads the same condition the claim does. On a
 * shared Postgres other processes write unseen, so the probe runs at every call.
 */
export type DueGate = {
  /** Whether work is due now: the probe's answer, or its last one while that still holds. */
  due(): Promise<boolean>;
  /** Forgets the last answer (this process was told of new work). */
  wake(): void;
};

/**
 * How long until some work is or becomes due, in milliseconds, as the database reckons it (zero
 * or less: now), or null when there is none at all. Reckoned by the database against its own
 * clock (`dueInOf`), so a server whose clock differs from the database's still claims on time.
 */
export type DueProbe = () => Promise<number | null>;

/** `watched()`: whether every write to the database passes this process (PGlite); `probe`: the poller's question. */
export function createDueGate(watched: () => boolean | Promise<boolean>, probe: DueProbe): DueGate {
  let known: { epoch: number; until: number } | null = null;
  return {
    async due() {
      // `watched` asked again: a process that moved to another database (tests) must not rest on an answer from the last.
      if (known && writeEpoch() === known.epoch && Date.now() < known.until && (await watched())) return false;
      known = null;
      // Read before the probe: a write landing while it runs makes the next call ask again.
      const epoch = writeEpoch();
      const inMs = await probe();
      if (inMs !== null && inMs <= 0) return true;
      if (await watched()) known = { epoch, until: inMs === null ? Infinity : Date.now() + inMs };
      return false;
    },
    wake() {
      known = null;
    },
  };
}

/**
 * A probe's SQL answer: a column `in_ms` holding `extract(epoch from <due time> - now()) * 1000`
 * cast to float8 (zero for "now"), null when nothing waits.
 */
export function dueInOf(rows: { in_ms?: unknown }[]): number | null {
  const inMs = rows[0]?.in_ms;
  return inMs === null || inMs === undefined ? null : Number(inMs);
}
