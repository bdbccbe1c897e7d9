import "server-only";
// The probe answers in our API's shape (GET /api/health), defined once in lib/schemas/health.ts.
import type { ServiceHealthView as ServiceHealth, TakenHealth } from "@/lib/schemas/health";
import { checkServiceAccess } from "./access-check";
import { env } from "../env";

/** Above this the banner says the service is slow. */
export const SLOW_MS = 1_500;
const PROBE_TIMEOUT_MS = 5_000;
const CACHE_MS = 10_000;
/** How long a caller waits for a new probe before it is given the last answer known. */
const ANSWER_WAIT_MS = 50;

// On globalThis so every bundle of the server shares one probe (see db/index.ts).
const KEY = Symbol.for("mail-dashboard.service-health");
/** The last answer and when it came; `probing` while a probe runs (one at a time). */
type Known = { last?: TakenHealth; probing?: Promise<TakenHealth> };
type Holder = { [KEY]?: Known };

/**
 * Whether the dashboard can use the service, for the banner. The interface has no health
 * endpoint, so the probe is an operation of it (one template of each SERVICE_PROJECTS
 * project, lib/server/service/access-check.ts): unreachable, key refused and unknown project
 * are told apart, as `npm start` tells them, so the banner stays right when the service goes
 * away or the key is revoked later. Shared by concurrent callers and fresh for ~10 s, so the
 * banner's polling never loads the service.
 *
 * Once the answer is older than that, one probe refreshes it and callers wait for it at most
 * ANSWER_WAIT_MS: a service that answers promptly gives them the new answer, one that is slow
 * or hangs gives them the last one, however old (a caller waits on the probe only when nothing
 * is known yet). The probe's answer is read on the same event loop as everything else, so
 * under load (a 100,000-row file being checked) a caller that waited for it took 0.9–1.2 s
 * where the known answer took 12 ms.
 */
export async function serviceHealth(): Promise<ServiceHealth> {
  return (await takenHealth()).value;
}

/** The answer `serviceHealth` gives, with the time its probe answered. */
function takenHealth(): Promise<TakenHealth> {
  const holder = globalThis as Holder;
  const known = (holder[KEY] ??= {});
  const last = known.last;
  if (last && Date.now() - last.at < CACHE_MS) return Promise.resolve(last);
  if (!known.probing) {
    const probing = probe().then(
      (value) => {
        const taken = { value, at: Date.now() };
        // Kept only if the cache is still the one it was asked for (a reset in between forgets it).
        if (holder[KEY] === known) holder[KEY] = { last: taken };
        return taken;
      },
      (e: unknown) => {
        if (known.probing === probing) delete known.probing;
        throw e;
      },
    );
    // Nobody may be waiting on it (the last answer was given): a failure is not left unhandled.
    probing.catch(() => {});
    known.probing = probing;
  }
  if (!last) return known.probing;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<TakenHealth>((resolve) => (timer = setTimeout(() => resolve(last), ANSWER_WAIT_MS)));
  return Promise.race([known.probing.catch(() => last), late]).finally(() => clearTimeout(timer));
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
  const fresh = takenHealth().then((taken) => {
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
