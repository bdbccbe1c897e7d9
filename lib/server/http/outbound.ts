import "server-only";
import { fetchPublic, type DestinationPolicy } from "@/contract/net/destination";
import { env } from "../env";

/**
 * The dashboard's fetches of URLs that users or messages supplied (link checks, previews)
 * go through here: public destinations only, pinned to the address checked, no redirects
 * followed. Calls to the email service itself use the service client, not this.
 */
export function outboundPolicy(): DestinationPolicy {
  const e = env();
  return { allowHosts: e.OUTBOUND_ALLOW_HOSTS, allowPrivate: e.OUTBOUND_ALLOW_PRIVATE };
}

export function fetchOutbound(url: string | URL, init: Parameters<typeof fetchPublic>[1] = {}): Promise<Response> {
  return fetchPublic(url, { policy: outboundPolicy(), ...init });
}
