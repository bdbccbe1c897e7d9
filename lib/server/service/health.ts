import "server-only";
// The probe answers in our API's shape (GET /api/health), defined once in lib/schemas/health.ts.
import type { ServiceHealthView as ServiceHealth, TakenHealth } from "@/lib/schemas/health";
import { checkServiceAccess } from "./access-check";
import { env } from "../env";

/** Above this the banner says the service is slow. */
export const SLOW_MS = 1_500;
const PROBE_TIMEOUT_MS = 5_000;
const CACHE_MS = 10_000;

// On globalThis so every bundle of the server shares one probe (see db/index.ts).
const KEY = Symbol.for("mail-dashboard.service-health");
type Cache = { at: number; value: ServiceHealth } | { at: number; pending: Promise<ServiceHealth> };
type Holder = { [KEY]?: Cache };

/**
 * Whether the dashboard can use the service, for the banner. The interface has no health
 * endpoint, so the probe is an operation of it (one template of each SERVICE_PROJECTS
 * project, lib/server/service/access-check.ts): unreachable, key refused and unknown project
 * are told apart, as `npm start` tells them, so the banner stays right when the service goes
 * away or the key is revoked later. Cached ~10 s and shared by concurrent callers, so the
 * banner's polling never loads the service.
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
  const e = env();
  const check = await checkServiceAccess({ url: e.SERVICE_URL, key: e.SERVICE_API_KEY, projects: e.SERVICE_PROJECTS, timeoutMs: PROBE_TIMEOUT_MS });
  // Not answering, failing or refusing the key: nothing that needs the service works.
  const down = check.problem !== null && check.problem !== "unknown_project";
  const state = down ? "down" : check.latencyMs !== null && check.latencyMs > SLOW_MS ? "slow" : "up";
  return { state, latencyMs: check.latencyMs, problem: check.problem, reason: check.reason };
}

const LAST = Symbol.for("mail-dashboard.service-health-last");

/**
 * For the frame every signed-in page renders, so the banner starts from the server's answer
 * and the browser does not ask (and load the answer's schema) the moment the page appears: the
 * probe as `serviceHealth` gives it when that takes at most `waitMs` (cached, or a service
 * answering normally), else the last answer known (null before any), never making a page
 * wait on a service that hangs.
 */
export async function serviceHealthForPage(waitMs = 250): Promise<TakenHealth | null> {
  const holder = globalThis as { [LAST]?: TakenHealth };
  const fresh = serviceHealth().then((value) => {
    const cached = (globalThis as Holder)[KEY];
    const taken = { value, at: cached && "value" in cached ? cached.at : Date.now() };
    holder[LAST] = taken;
    return taken;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
  try {
    return (await Promise.race([fresh, late])) ?? holder[LAST] ?? null;
  } catch {
    return holder[LAST] ?? null;
  } finally {
    clearTimeout(timer);
  }
}

/** Tests only: forget the cached probe. */
export function resetServiceHealth(): void {
  delete (globalThis as Holder)[KEY];
  delete (globalThis as { [LAST]?: TakenHealth })[LAST];
}
