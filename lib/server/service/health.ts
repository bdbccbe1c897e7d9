import "server-only";
import { env } from "../env";
import { serviceUrl } from "./url";

export type ServiceHealth = { state: "up" | "slow" | "down"; latencyMs: number | null };

/** Above this the banner says the service is slow. */
export const SLOW_MS = 1_500;
const PROBE_TIMEOUT_MS = 5_000;
const CACHE_MS = 10_000;

// On globalThis so every bundle of the server shares one probe (see db/index.ts).
const KEY = Symbol.for("mail-dashboard.service-health");
type Cache = { at: number; value: ServiceHealth } | { at: number; pending: Promise<ServiceHealth> };
type Holder = { [KEY]?: Cache };

/**
 * Whether the service answers, for the banner. The interface has no health endpoint, so the
 * probe is the cheapest read (one template); any answer below 500 means it is up — a 400
 * for the missing project header still proves it is there. Cached ~10 s and shared by
 * concurrent callers, so the banner's polling never loads the service.
 */
export async function serviceHealth(): Promise<ServiceHealth> {
  const holder = globalThis as Holder;
  const cached = holder[KEY];
  if (cached && Date.now() - cached.at < CACHE_MS) {
    return "value" in cached ? cached.value : cached.pending;
  }
  const pending = probe().then((value) => {
    holder[KEY] = { at: Date.now(), value };
    return value;
  });
  holder[KEY] = { at: Date.now(), pending };
  return pending;
}

async function probe(): Promise<ServiceHealth> {
  const started = performance.now();
  try {
    const res = await fetch(serviceUrl("/v1/templates", { limit: 1 }), {
      headers: { Authorization: `Bearer ${env().SERVICE_API_KEY}`, Accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      cache: "no-store",
    });
    await res.body?.cancel();
    const latencyMs = Math.round(performance.now() - started);
    if (res.status >= 500) return { state: "down", latencyMs };
    return { state: latencyMs > SLOW_MS ? "slow" : "up", latencyMs };
  } catch {
    // Not answering within the probe timeout is as good as down for the person waiting.
    return { state: "down", latencyMs: null };
  }
}

/** Tests only: forget the cached probe. */
export function resetServiceHealth(): void {
  delete (globalThis as Holder)[KEY];
}
