import "server-only";
import { fetchPublic, type DestinationPolicy } from "@/contract/net/destination";
import { LINK_CHECK_CONCURRENCY, MAX_LINKS_CHECKED, type LinkCheckOutcome } from "@/lib/schemas/presend";
import { env } from "@/lib/server/env";
import { createSlots, type Slots } from "@/lib/server/limits/slots";

/** Per link, HEAD and (when refused) GET together. */
export const LINK_TIMEOUT_MS = 5000;
/** A whole check: links not answered by then are reported as not checked. */
export const LINK_CHECK_DEADLINE_MS = 20_000;

export type ReachabilityOptions = {
  timeoutMs?: number;
  concurrency?: number;
  policy?: DestinationPolicy;
  /** The whole check's time (LINK_CHECK_DEADLINE_MS). */
  deadlineMs?: number;
  /** Requests in flight across every check of the process (LINK_CHECK_MAX_IN_FLIGHT). */
  slots?: Slots;
};

const SLOTS_KEY = Symbol.for("mail-dashboard.link-check-slots");
/** One set of slots per process, though Next may load this module in more than one bundle. */
export function linkCheckSlots(): Slots {
  const holder = globalThis as { [SLOTS_KEY]?: Slots };
  return (holder[SLOTS_KEY] ??= createSlots(env().LINK_CHECK_MAX_IN_FLIGHT));
}

const USER_AGENT = "Mozilla/5.0 (compatible; mail-dashboard link check)";

/** Servers that do not take HEAD answer one of these; they get a GET whose body is never read. */
const HEAD_REFUSED = new Set([400, 403, 405, 501]);

function explainError(e: unknown, timeoutMs: number): string {
  const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code;
  if (err.name === "DestinationBlockedError") {
    // contract/net/destination.ts: "The destination was refused: <why>."
    const why = err.message.replace(/^The destination was refused:\s*/, "").replace(/\.$/, "");
    return `Not checked: ${why}, not a public address. Readers outside your network cannot open such a link either.`;
  }
  if (err.name === "TimeoutError" || err.name === "AbortError") return `It did not answer within ${timeoutMs / 1000} s.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "Its domain does not resolve (no DNS record), so the link cannot work.";
  // c-ares' words (contract/net/destination.ts resolves names with it): the name servers, not the site, failed.
  if (code === "ETIMEOUT" || code === "ECANCELLED") return "Its domain does not resolve: its name servers did not answer in time, so readers may not reach it either.";
  if (code === "ESERVFAIL" || code === "EREFUSED") return "Its domain does not resolve: its name servers answered with an error, so readers may not reach it either.";
  if (code === "ECONNREFUSED") return "The server refused the connection.";
  if (code === "ECONNRESET" || code === "EPIPE") return "The server closed the connection without answering.";
  if (code && /CERT|SSL|TLS/.test(code)) return `Its HTTPS certificate is not valid (${code}); browsers will warn before opening it.`;
  return `It could not be reached: ${err.message}.`;
}

type Settings = { timeoutMs: number; policy?: DestinationPolicy; slots: Slots; checkDeadline: number; deadlineMs: number };

const notChecked = (url: string, problem: string, started: number): LinkCheckOutcome => ({ url, ok: false, status: null, location: null, problem, ms: Date.now() - started });

async function checkOne(url: string, options: Settings): Promise<LinkCheckOutcome> {
  const started = Date.now();
  const outOfTime = () => notChecked(url, `Not checked: a link check may take ${options.deadlineMs / 1000} s in all, and the time was up before this link's turn.`, started);
  if (started >= options.checkDeadline) return outOfTime();
  let release: () => void;
  try {
    // Waits while other checks hold every outbound slot, at most until the whole check's deadline.
    release = await options.slots.acquire(AbortSignal.timeout(options.checkDeadline - started));
  } catch {
    return outOfTime();
  }
  try {
    return await fetchOne(url, options, Date.now());
  } finally {
    release();
  }
}

async function fetchOne(url: string, options: Settings, started: number): Promise<LinkCheckOutcome> {
  const deadline = Math.min(started + options.timeoutMs, options.checkDeadline);
  const attempt = async (method: "HEAD" | "GET") => {
    const res = await fetchPublic(url, { method, headers: { "User-Agent": USER_AGENT, Accept: "*/*" }, redirect: "manual", timeoutMs: Math.max(1, deadline - Date.now()), policy: options.policy });
    // Only the status matters: the body is never read.
    await res.body?.cancel().catch(() => {});
    return res;
  };
  try {
    let res = await attempt("HEAD");
    if (HEAD_REFUSED.has(res.status)) res = await attempt("GET");
    const location = res.headers.get("location");
    const ok = res.status < 400;
    return {
      url,
      ok,
      status: res.status,
      location: location ? new URL(location, url).toString() : null,
      problem: ok ? null : `It answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}: readers get an error page.`,
      ms: Date.now() - started,
    };
  } catch (e) {
    // The time this link had: its own timeout, or less when the check's deadline came first.
    return { url, ok: false, status: null, location: null, problem: explainError(e, Math.round((deadline - started) / 100) * 100), ms: Date.now() - started };
  }
}

/**
 * Whether each link answers, from this server, for public addresses only: at most
 * MAX_LINKS_CHECKED links, a few at a time, each bounded by a timeout and all of them by the
 * check's deadline, and no more requests in flight in the process than its slots allow.
 * Redirects are reported with their target rather than followed.
 */
export async function checkReachability(urls: string[], options: ReachabilityOptions = {}): Promise<LinkCheckOutcome[]> {
  const unique = [...new Set(urls)].slice(0, MAX_LINKS_CHECKED);
  const deadlineMs = options.deadlineMs ?? LINK_CHECK_DEADLINE_MS;
  const settings: Settings = {
    timeoutMs: options.timeoutMs ?? LINK_TIMEOUT_MS,
    policy: options.policy,
    slots: options.slots ?? linkCheckSlots(),
    checkDeadline: Date.now() + deadlineMs,
    deadlineMs,
  };
  const concurrency = options.concurrency ?? LINK_CHECK_CONCURRENCY;
  const results: LinkCheckOutcome[] = new Array(unique.length);
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const i = next++;
      results[i] = await checkOne(unique[i]!, settings);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, unique.length) }, worker));
  return results;
}
