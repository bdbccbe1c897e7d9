import "server-only";
import { fetchPublic, type DestinationPolicy } from "@/lib/net/destination";
import { LINK_CHECK_CONCURRENCY, MAX_LINKS_CHECKED, type LinkCheckOutcome } from "@/lib/schemas/presend";

/** Per link, HEAD and (when refused) GET together. */
export const LINK_TIMEOUT_MS = 5000;

export type ReachabilityOptions = { timeoutMs?: number; concurrency?: number; policy?: DestinationPolicy };

const USER_AGENT = "Mozilla/5.0 (compatible; mail-dashboard link check)";

/** Servers that do not take HEAD answer one of these; they get a GET whose body is never read. */
const HEAD_REFUSED = new Set([400, 403, 405, 501]);

function explainError(e: unknown, timeoutMs: number): string {
  const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code;
  if (err.name === "DestinationBlockedError") {
    // lib/net/destination.ts: "The destination was refused: <why>."
    const why = err.message.replace(/^The destination was refused:\s*/, "").replace(/\.$/, "");
    return `Not checked: ${why}, not a public address. Readers outside your network cannot open such a link either.`;
  }
  if (err.name === "TimeoutError" || err.name === "AbortError") return `It did not answer within ${timeoutMs / 1000} s.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "Its domain does not resolve (no DNS record), so the link cannot work.";
  if (code === "ECONNREFUSED") return "The server refused the connection.";
  if (code === "ECONNRESET" || code === "EPIPE") return "The server closed the connection without answering.";
  if (code && /CERT|SSL|TLS/.test(code)) return `Its HTTPS certificate is not valid (${code}); browsers will warn before opening it.`;
  return `It could not be reached: ${err.message}.`;
}

async function checkOne(url: string, options: Required<Omit<ReachabilityOptions, "policy">> & { policy?: DestinationPolicy }): Promise<LinkCheckOutcome> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
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
    return { url, ok: false, status: null, location: null, problem: explainError(e, options.timeoutMs), ms: Date.now() - started };
  }
}

/**
 * Whether each link answers, from this server, for public addresses only: at most
 * MAX_LINKS_CHECKED links, a few at a time, each bounded by a timeout. Redirects are
 * reported with their target rather than followed.
 */
export async function checkReachability(urls: string[], options: ReachabilityOptions = {}): Promise<LinkCheckOutcome[]> {
  const unique = [...new Set(urls)].slice(0, MAX_LINKS_CHECKED);
  const settings = { timeoutMs: options.timeoutMs ?? LINK_TIMEOUT_MS, concurrency: options.concurrency ?? LINK_CHECK_CONCURRENCY, policy: options.policy };
  const results: LinkCheckOutcome[] = new Array(unique.length);
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const i = next++;
      results[i] = await checkOne(unique[i]!, settings);
    }
  };
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, unique.length) }, worker));
  return results;
}
