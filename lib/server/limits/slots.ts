import "server-only";

/**
 * A counted bound on work in flight (a semaphore): at most `limit` holders at once; the others
 * wait in order, each until its signal gives up. For outbound requests shared by all users
 * of a process, where a per-user bound alone still multiplies by the number of users.
 */
export type Slots = {
  /** Resolves with the release function once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  stats(): { inUse: number; waiting: number; limit: number };
};

export function createSlots(limit: number): Slots {
  let inUse = 0;
  const waiting: { grant: () => void }[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.grant();
    else inUse--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inUse < limit) {
        inUse++;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const entry = {
          // A released slot passes straight to the next waiter: inUse stays as it is.
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(once());
          },
        };
        const onAbort = () => {
          const at = waiting.indexOf(entry);
          if (at !== -1) waiting.splice(at, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.push(entry);
      });
    },
    stats: () => ({ inUse, waiting: waiting.length, limit }),
  };
}
