import { writeEpoch } from "./write-epoch";

/**
 * A background poller's "is anything due?", answered without the database while the answer
 * cannot have changed.
 *
 * A poller that claims its work with an UPDATE writes even when it finds nothing, and an idle
 * server's pollers kept PGlite busy that way several times a second (the dashboard about 16
 * statements a second, the local service's job claim five times a second). With a gate, a
 * poller first asks a read-only `probe` when work next falls due, and claims only when that
 * time has come. On a database this process alone writes (PGlite: `watched`), the answer holds
 * until either the next write reaches it (./write-epoch.ts counts every write, whoever made
 * it) or the time it named comes: until then `due()` answers false without a query. Nothing
 * becomes due otherwise, as long as the probe reads the same condition the claim does. On a
 * shared Postgres other processes write unseen, so the probe runs at every call.
 */
export type DueGate = {
  /** Whether work is due now: the probe's answer, or its last one while that still holds. */
  due(probe: () => Promise<number | null>): Promise<boolean>;
  /** Forgets the last answer (this process was told of new work). */
  wake(): void;
};

/**
 * `watched()`: whether every write to the database passes this process (PGlite). The probe
 * answers the earliest time, in epoch milliseconds, at which some work is or becomes due (a
 * time already past means now), or null when there is none at all.
 */
export function createDueGate(watched: () => boolean | Promise<boolean>): DueGate {
  let known: { epoch: number; until: number } | null = null;
  return {
    async due(probe) {
      if (known && writeEpoch() === known.epoch && Date.now() < known.until) return false;
      known = null;
      // Read before the probe: a write landing while it runs makes the next call ask again.
      const epoch = writeEpoch();
      const at = await probe();
      const until = at === null ? Infinity : at;
      if (until <= Date.now()) return true;
      if (await watched()) known = { epoch, until };
      return false;
    },
    wake() {
      known = null;
    },
  };
}

/**
 * The probe's SQL answer read as epoch milliseconds: a column `at` holding
 * `extract(epoch from <timestamptz>) * 1000` cast to float8, null when nothing waits.
 */
export function dueAtOf(rows: { at?: unknown }[]): number | null {
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}
