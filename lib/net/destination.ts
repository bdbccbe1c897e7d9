import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";

/**
 * TEMPORARY stand-in for engineer C2's lib/net/destination.ts (issue #12), with exactly its
 * API, so the pre-send link check can be built and tested in parallel. At merge, keep C2's
 * version of this file.
 *
 * `fetchPublic` fetches a URL only when every address its host resolves to is public:
 * loopback, private, link-local (cloud metadata), carrier-grade NAT, documentation,
 * multicast and reserved ranges are refused. The connection goes to the address that was
 * checked (no second DNS answer can swap it), and redirects are returned, not followed.
 */
export type DestinationPolicy = { allowPrivate?: boolean; allowHosts?: string[] };

export class DestinationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DestinationRefusedError";
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], ["::1", 128], ["100::", 64], ["2001::", 32], ["2001:db8::", 32], ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8],
] as const) blocked.addSubnet(net, prefix, "ipv6");

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family !== 6) return false;
  // IPv4-mapped and NAT64 addresses reach the IPv4 address inside them.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (embedded) return isPublicAddress(embedded[1]!);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1]!, 16);
    const lo = parseInt(mappedHex[2]!, 16);
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !blocked.check(address, "ipv6");
}

const NO_BODY = new Set([101, 204, 205, 304]);

export async function fetchPublic(url: string | URL, init: RequestInit & { timeoutMs?: number; policy?: DestinationPolicy } = {}): Promise<Response> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new DestinationRefusedError(`Only http and https addresses can be fetched, not ${target.protocol}`);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const { policy = {}, timeoutMs = 10_000 } = init;
  const allowed = policy.allowPrivate || (policy.allowHosts ?? []).some((h) => h.toLowerCase() === host.toLowerCase());
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new DestinationRefusedError(`${host} has no address`);
  if (!allowed) {
    const inner = addresses.find((a) => !isPublicAddress(a.address));
    if (inner) throw new DestinationRefusedError(`${host} resolves to ${inner.address}, which is not a public address`);
  }
  const chosen = addresses[0]!;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: chosen.address, family: chosen.family }]);
    else callback(null, chosen.address, chosen.family);
  };

  const signals = [AbortSignal.timeout(timeoutMs), ...(init.signal ? [init.signal] : [])];
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]!;
  const method = (init.method ?? "GET").toUpperCase();
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const body = init.body;
  if (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) throw new TypeError("fetchPublic sends string or byte bodies only");

  return new Promise<Response>((resolve, reject) => {
    const request = (target.protocol === "https:" ? https : http).request(
      target,
      { method, headers, lookup: pinned, signal, ...(target.protocol === "https:" && !isIP(host) ? { servername: host } : {}) },
      (res) => {
        const status = res.statusCode ?? 502;
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const empty = method === "HEAD" || NO_BODY.has(status);
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status: status < 200 || status > 599 ? 502 : status,
            statusText: res.statusMessage ?? "",
            headers: responseHeaders,
          }),
        );
      },
    );
    request.on("error", (e) => {
      if (!signal.aborted || init.signal?.aborted) return reject(e);
      const timeout = new Error(`${host} did not answer within ${timeoutMs} ms`);
      timeout.name = "TimeoutError";
      reject(timeout);
    });
    request.end(body ?? undefined);
  });
}
