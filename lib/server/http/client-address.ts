import "server-only";
import { env } from "@/lib/server/env";
import { hookServerRequests } from "./http-request-hook";
import { addressSet, normalizeAddress } from "@/lib/net/ip-ranges";

/**
 * The TCP peer of a request, written by our own hook on Node's HTTP server (below) before
 * Next sees the request. A client's own header of this name is overwritten, so it cannot be
 * forged. Next itself offers no peer address: it copies the socket's address into
 * X-Forwarded-For only when the client sent none, so that header is the client's choice.
 */
export const PEER_HEADER = "x-mailroom-peer";

/** Called once at start (instrumentation.ts). Idempotent. */
export function installPeerAddressHeader(): void {
  hookServerRequests(Symbol.for("mail-dashboard.peer-header"), (req) => {
    req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
    return false;
  });
}

let trustedFor: { entries: readonly string[]; test: (address: string) => boolean } | null = null;
function isTrustedProxy(address: string): boolean {
  const entries = env().TRUSTED_PROXIES;
  if (trustedFor?.entries !== entries) trustedFor = { entries, test: addressSet(entries) };
  return trustedFor.test(address);
}

/**
 * Whether the request reached us through a proxy listed in TRUSTED_PROXIES, so its
 * `X-Forwarded-*` headers were written (or overwritten) by that proxy. Without the list no
 * peer is trusted and those headers are the client's own words.
 */
export function fromTrustedProxy(headers: Headers): boolean {
  const peer = normalizeAddress(headers.get(PEER_HEADER) ?? "");
  return Boolean(peer) && isTrustedProxy(peer);
}

/**
 * The client's address, for sign-in throttling and the audit log. Without TRUSTED_PROXIES it
 * is the TCP peer and forwarded headers are ignored: anyone can write them. When the peer is
 * a trusted proxy, X-Forwarded-For is read from the right (each proxy appends what it saw),
 * skipping trusted proxies; the first address that is not one is the client.
 */
export function clientAddress(headers: Headers): string {
  return clientAddressOf(headers.get(PEER_HEADER) ?? "", headers.get("x-forwarded-for"));
}

/**
 * The same from the TCP peer and X-Forwarded-For as they are, for code on Node's server that
 * runs before the peer header is written (lib/server/http/request-body-limits.ts).
 */
export function clientAddressOf(peerAddress: string, forwardedFor: string | null): string {
  const peer = normalizeAddress(peerAddress);
  if (!peer) return "unknown";
  if (!isTrustedProxy(peer)) return peer.slice(0, 100);
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((s) => normalizeAddress(s))
    .filter(Boolean);
  let client = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    client = chain[i];
    if (!isTrustedProxy(client)) break;
  }
  return client.slice(0, 100);
}
