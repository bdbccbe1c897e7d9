import "server-only";

/**
 * At most `limit` uses per user in any minute, per dashboard process: `take` counts one and
 * answers null, or the seconds until one is free again (nothing counted). Timestamps of the
 * last minute only are kept, `limit` per user at most; users idle for a minute are forgotten.
 */
export function perMinute(kind: string, limit: number, windowMs = 60_000) {
  const key = Symbol.for(`mail-dashboard.per-minute.${kind}`);
  const holder = globalThis as { [key: symbol]: Map<string, number[]> | undefined };
  return {
    take(userId: string, now = Date.now()): number | null {
      const users: Map<string, number[]> = (holder[key] ??= new Map<string, number[]>());
      for (const [id, times] of users) if (times.at(-1)! <= now - windowMs) users.delete(id);
      const times = (users.get(userId) ?? []).filter((t) => t > now - windowMs);
      if (times.length >= limit) return Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
      times.push(now);
      users.set(userId, times);
      return null;
    },
  };
}
