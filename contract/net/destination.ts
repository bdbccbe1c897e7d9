import { lookup, Resolver as DnsResolver } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { TLSSocket } from "node:tls";
import { Readable } from "node:stream";
import { classifyIp, isPublicIp } from "./ip";

/**
 * Server-side requests to URLs that someone else chose (the local service's webhook
 * deliveries, the dashboard's link checks) may reach only public addresses: never this
 * machine, the local network or a cloud metadata service. No "server-only" import and no
 * Next dependency, so the dashboard and service/ both use it.
 *
 * A check made when the URL is saved is not enough: the name can resolve elsewhere by the
 * time the request is made (DNS rebinding). fetchPublic therefore resolves the name itself at
 * connect time, checks every address, and connects to a checked one — the check and the
 * connection use the same lookup.
 */

export { isPublicIp };

export type DestinationPolicy = {
  /** Loopback, RFC 1918, CGNAT, link-local and unique-local addresses allowed (development). Metadata addresses stay refused. */
  allowPrivate?: boolean;
  /**
   * `host` or `host:port` entries allowed whatever they resolve to, optionally narrowed to a
   * path: `localhost:3000/api/ingest/` allows only URLs under that path (the dashboard's own
   * ingest URLs, and not the rest of the dashboard).
   */
  allowHosts?: string[];
};

/** Name → addresses. Replaceable in tests, to make a name resolve (or re-resolve) anywhere. */
export type Resolver = (hostname: string) => Promise<string[]>;

/**
 * The operating system's resolver (getaddrinfo: /etc/hosts, search domains, nsswitch), for
 * hosts the operator listed (allowHosts). It runs on libuv's small thread pool (4 threads,
 * shared with file and zlib work) and cannot be cancelled: a name whose DNS answers slowly
 * holds a thread however soon the caller gives up, so it is never used for a name someone
 * else chose.
 */
export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const RESOLVE_TIMEOUT_MS = 5_000;

/** No DNS answer means no address; anything else (a timeout, a refusal) is an error to report. */
const NO_ADDRESS = new Set(["ENOTFOUND", "ENODATA"]);

/**
 * Names someone else chose (a link in a draft, a customer's webhook) are resolved with c-ares
 * (`dns.Resolver`): DNS queries on the event loop, each bounded by `timeoutMs` and cancelled
 * then, so a slow or silent name server holds nothing afterwards. A records first, then AAAA.
 * `localhost` is loopback without asking DNS (RFC 6761). `servers`: tests point it at their own.
 */
export function dnsResolver(options: { timeoutMs?: number; servers?: string[] } = {}): Resolver {
  const timeoutMs = options.timeoutMs ?? RESOLVE_TIMEOUT_MS;
  return async (hostname) => {
    if (hostname === "localhost" || hostname.endsWith(".localhost")) return ["127.0.0.1", "::1"];
    const resolver = new DnsResolver({ timeout: timeoutMs, tries: 1 });
    if (options.servers) resolver.setServers(options.servers);
    // c-ares' timeout is per try and server; this one is for the whole resolution.
    const timer = setTimeout(() => resolver.cancel(), timeoutMs);
    try {
      const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const addresses = answers.flatMap((a) => (a.status === "fulfilled" ? a.value : []));
      if (addresses.length) return addresses;
      const failure = answers.map((a) => (a.status === "rejected" ? (a.reason as NodeJS.ErrnoException) : null)).find((e) => e && !NO_ADDRESS.has(e.code ?? ""));
      if (failure) throw failure;
      return [];
    } finally {
      clearTimeout(timer);
    }
  };
}

export const publicResolver: Resolver = dnsResolver();

/** The resolver for a host: the operator's own (listed) hosts as the system resolves them, every other name through DNS. */
const defaultResolver = (allowedHost: boolean): Resolver => (allowedHost ? systemResolver : publicResolver);

/** Names that are a metadata service whatever they resolve to. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal"]);

export type Inspection =
  | { ok: true; url: URL; addresses: string[]; allowedHost: boolean }
  | { ok: false; code: "invalid_url" | "scheme" | "blocked" | "unresolved"; reason: string };

/** `[::1]` → `::1`, lower case, no trailing dot. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();

const defaultPort = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

type AllowEntry = { host: string; port: string | null; path: string | null };

/** `host`, `host:port`, `[v6]`, `[v6]:port`, each optionally followed by a path (compared with case). */
function parseAllowEntry(entry: string): AllowEntry | null {
  const trimmed = entry.trim();
  const slash = trimmed.indexOf("/");
  const text = (slash < 0 ? trimmed : trimmed.slice(0, slash)).toLowerCase();
  const path = slash < 0 ? null : trimmed.slice(slash);
  if (!text) return null;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) return { host: v6[1], port: v6[2] ?? null, path };
  const hostPort = /^([^:]+):(\d+)$/.exec(text);
  if (hostPort) return { host: hostPort[1].replace(/\.$/, ""), port: hostPort[2], path };
  return { host: text.replace(/\.$/, ""), port: null, path };
}

/**
 * The URL's path is the entry's or below it, segment by segment: `/api/ingest/` takes
 * `/api/ingest/acme`, `/api/ingest` takes itself and `/api/ingest/…`, never `/api/ingestion`.
 * The URL parser has already resolved `..` (and `%2e%2e`) segments.
 */
function underPath(pathname: string, prefix: string): boolean {
  if (prefix.endsWith("/")) return pathname.startsWith(prefix);
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isAllowedHost(url: URL, policy: DestinationPolicy = {}): boolean {
  const host = bareHost(url);
  const port = defaultPort(url);
  return (policy.allowHosts ?? []).some((entry) => {
    const parsed = parseAllowEntry(entry);
    return parsed !== null && parsed.host === host && (parsed.port === null || parsed.port === port) && (parsed.path === null || underPath(url.pathname, parsed.path));
  });
}

/** Why an address is refused under the policy, or null when it may be reached. */
export function addressRefusal(address: string, policy: DestinationPolicy = {}): string | null {
  const verdict = classifyIp(address);
  if (!verdict) return null;
  if (!verdict.forbidden && policy.allowPrivate) return null;
  return verdict.reason;
}

function toUrl(url: string | URL): URL | null {
  try {
    return url instanceof URL ? url : new URL(url);
  } catch {
    return null;
  }
}

/**
 * The full verdict on a URL: where it would connect, or why not. `unresolved` (the name has
 * no address right now) is told apart so a caller may accept the URL and leave the decision
 * to connect time.
 */
export async function inspectDestination(input: string | URL, policy: DestinationPolicy = {}, resolver?: Resolver): Promise<Inspection> {
  const url = toUrl(input);
  if (!url) return { ok: false, code: "invalid_url", reason: "is not a valid URL" };
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, code: "scheme", reason: "must be an http or https URL" };
  const host = bareHost(url);
  const allowedHost = isAllowedHost(url, policy);
  const resolve = resolver ?? defaultResolver(allowedHost);

  if (isIP(host)) {
    const refusal = allowedHost ? null : addressRefusal(host, policy);
    if (refusal) return { ok: false, code: "blocked", reason: `points at ${host}, ${refusal}` };
    return { ok: true, url, addresses: [host], allowedHost };
  }
  if (!allowedHost) {
    if (METADATA_NAMES.has(host)) return { ok: false, code: "blocked", reason: `points at ${host}, a cloud metadata service` };
    if ((host === "localhost" || host.endsWith(".localhost")) && !policy.allowPrivate) {
      return { ok: false, code: "blocked", reason: `points at ${host}, a loopback address (this machine)` };
    }
  }
  let addresses: string[];
  try {
    // Bounded: a resolver that does not answer must not hold the caller (an API request) long.
    addresses = await Promise.race([resolve(host), new Promise<string[]>((done) => setTimeout(() => done([]), RESOLVE_TIMEOUT_MS).unref())]);
  } catch {
    addresses = [];
  }
  if (!addresses.length) return { ok: false, code: "unresolved", reason: `${host} could not be resolved` };
  if (!allowedHost) {
    for (const address of addresses) {
      const refusal = addressRefusal(address, policy);
      if (refusal) return { ok: false, code: "blocked", reason: `${host} resolves to ${address}, ${refusal}` };
    }
  }
  return { ok: true, url, addresses, allowedHost };
}

export async function checkDestination(
  url: string | URL,
  policy?: DestinationPolicy,
  resolve?: Resolver,
): Promise<{ ok: true; addresses: string[] } | { ok: false; reason: string }> {
  const result = await inspectDestination(url, policy, resolve);
  return result.ok ? { ok: true, addresses: result.addresses } : { ok: false, reason: result.reason };
}

/** Refused before or while connecting; `code` lets callers tell it from network failures. */
export class DestinationBlockedError extends Error {
  readonly code = "EDESTINATION_BLOCKED";
  constructor(reason: string) {
    super(`The destination was refused: ${reason}.`);
    this.name = "DestinationBlockedError";
  }
}

/** What the TLS handshake of an https request settled on (the webhook tester shows it). */
export type TlsSummary = { protocol: string | null; cipher: string | null; authorized: boolean; subject: string | null; issuer: string | null; validTo: string | null };

type FetchPublicInit = RequestInit & { timeoutMs?: number; policy?: DestinationPolicy; resolve?: Resolver; onTls?: (tls: TlsSummary) => void };

function bodyOf(body: RequestInit["body"]): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("fetchPublic sends a string, URLSearchParams or bytes as the body");
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for URLs someone else chose. The name is resolved at connect time, every address
 * checked against the policy, and the socket opened to a checked address (so a name that
 * resolved to a public address when saved and to 127.0.0.1 now is refused). Redirects are
 * not followed: a 3xx is returned as it is. `timeoutMs` (default 10 s) bounds the whole request.
 */
export async function fetchPublic(input: string | URL, init: FetchPublicInit = {}): Promise<Response> {
  const { timeoutMs = 10_000, policy = {}, resolve: resolver, onTls, ...rest } = init;
  const url = toUrl(input);
  if (!url) throw new TypeError("fetchPublic: not a valid URL");
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new DestinationBlockedError("only http and https URLs are fetched");
  const host = bareHost(url);
  const allowedHost = isAllowedHost(url, policy);
  const resolve = resolver ?? defaultResolver(allowedHost);
  // An IP literal never goes through the lookup below, so it is checked here.
  if (isIP(host) && !allowedHost) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new DestinationBlockedError(`${host} is ${refusal}`);
  }
  if (!allowedHost && !isIP(host)) {
    const early = refusedName(host, policy);
    if (early) throw new DestinationBlockedError(early);
  }

  // The connect-time lookup: resolve, check, and hand the socket only checked addresses.
  const pinnedLookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (!addresses.length) return callback(Object.assign(new Error(`${hostname} could not be resolved`), { code: "ENOTFOUND" }), "", 0);
        if (!allowedHost) {
          for (const address of addresses) {
            const refusal = addressRefusal(address, policy);
            if (refusal) return callback(new DestinationBlockedError(`${hostname} resolves to ${address}, ${refusal}`), "", 0);
          }
        }
        const family = (a: string) => (isIP(a) === 6 ? 6 : 4);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => family(a) === options.family) : addresses;
        if (!wanted.length) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: "ENOTFOUND" }), "", 0);
        if (options.all) {
          (callback as unknown as (e: null, all: { address: string; family: number }[]) => void)(null, wanted.map((a) => ({ address: a, family: family(a) })));
        } else {
          callback(null, wanted[0], family(wanted[0]));
        }
      },
      (error: Error) => callback(Object.assign(error, { code: (error as { code?: string }).code ?? "ENOTFOUND" }), "", 0),
    );
  };

  const headers: Record<string, string> = {};
  new Headers(rest.headers).forEach((value, key) => {
    headers[key] = value;
  });
  const body = bodyOf(rest.body);
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
  const { signal, done } = deadline(timeoutMs, rest.signal ?? undefined);

  return new Promise<Response>((resolvePromise, reject) => {
    if (signal.aborted) {
      done();
      return reject(signal.reason);
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    let req: ReturnType<typeof send>;
    try {
      req = send(url, { method: rest.method ?? "GET", headers, lookup: pinnedLookup, signal }, onAnswer);
    } catch (error) {
      // Refused before anything was sent (a method Node does not take): nothing will close.
      done();
      return reject(error);
    }
    function onAnswer(res: IncomingMessage) {
      const status = res.statusCode ?? 502;
      if (onTls && res.socket instanceof TLSSocket) onTls(tlsSummary(res.socket));
      const responseHeaders = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
      }
      const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      if (!stream) res.resume();
      resolvePromise(new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders }));
    }
    req.on("error", (error: Error & { cause?: unknown }) => {
      if (signal.aborted) return reject(signal.reason);
      // A refusal in the lookup surfaces as the request's error.
      if (error instanceof DestinationBlockedError) return reject(error);
      reject(Object.assign(new TypeError("fetch failed"), { cause: error }));
    });
    // The deadline covers the answer's body too: it ends when the exchange has closed.
    req.on("close", done);
    if (body) req.write(body);
    req.end();
  });
}

/**
 * A signal that aborts with a TimeoutError after `timeoutMs`, or when `outer` aborts. Not
 * AbortSignal.any([AbortSignal.timeout(ms), outer]): on Node 20 the garbage collector can
 * take the timeout signal inside it before it fires (nodejs/node#57736), and the request
 * then never ends. A timer of our own is held until `done()`.
 */
function deadline(timeoutMs: number, outer?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  const timer = setTimeout(() => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), timeoutMs);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  const done = () => {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  };
  return { signal: controller.signal, done };
}

/** Names refused whatever they resolve to (metadata services, localhost), for fetchPublic's early exit. */
function refusedName(host: string, policy: DestinationPolicy): string | null {
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata service`;
  if ((host === "localhost" || host.endsWith(".localhost")) && !policy.allowPrivate) return `${host} is a loopback address (this machine)`;
  return null;
}

function tlsSummary(socket: TLSSocket): TlsSummary {
  const cert = socket.getPeerCertificate();
  const name = (n: unknown) => (n && typeof n === "object" && "CN" in n && typeof n.CN === "string" ? n.CN : null);
  return {
    protocol: socket.getProtocol() ?? null,
    cipher: socket.getCipher()?.name ?? null,
    authorized: socket.authorized,
    subject: cert ? name(cert.subject) : null,
    issuer: cert ? name(cert.issuer) : null,
    validTo: cert?.valid_to ?? null,
  };
}
