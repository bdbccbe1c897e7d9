import type { Store } from "./store";

const LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency-Key, per sending project, for 24 hours. The interface says the original result
 * comes back when a key arrives again; the contrarian takes that literally: whatever the second
 * body says, the first answer is returned and nothing is sent. Send and reply share the keys.
 */
export async function once(
  store: Store,
  projectId: string,
  key: string | undefined,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  if (!key) return { ...(await run()), replayed: false };
  const slot = `${projectId}|${key}`;
  const earlier = store.idempotency.get(slot);
  if (earlier && Date.now() - earlier.at < LIFETIME_MS) return { status: earlier.status, body: earlier.body, replayed: true };
  const result = await run();
  // Failures are not remembered: a corrected retry with the same key goes through.
  if (result.status < 300) store.idempotency.set(slot, { ...result, at: Date.now() });
  return { ...result, replayed: false };
}
