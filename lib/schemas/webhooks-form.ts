import { z } from "zod";
import { createWebhookRequest, webhook } from "./webhooks";

/** The "create webhook" form is the wire body itself: a URL and at least one event type. */
export const createWebhookForm = createWebhookRequest;
export type CreateWebhookForm = z.infer<typeof createWebhookForm>;

/** A webhook as the dashboard lists it: the secret dropped, the dashboard's own stream marked. */
export const webhookListItem = webhook.omit({ signingSecret: true }).extend({ isEventStream: z.boolean() });
export type WebhookListItem = z.infer<typeof webhookListItem>;
export const webhookList = z.object({ data: z.array(webhookListItem), nextCursor: z.string().nullable() });

export const createdWebhook = webhookListItem.extend({ signingSecret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhook>;

/** Deleting the dashboard's own event stream needs its URL typed back. */
export const deleteWebhookBody = z.object({ confirmUrl: z.string().max(2000).optional() });

function ipv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const n = parts.map(Number);
  return n.every((x) => x <= 255) ? n : null;
}

function privateV4([a, b]: number[]): string | null {
  if (a === 127) return "a loopback address (this machine)";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private-network address (RFC 1918)";
  if (a === 169 && b === 254) return "a link-local address";
  if (a === 100 && b >= 64 && b <= 127) return "a carrier-grade NAT address";
  if (a === 0) return "an unspecified address";
  return null;
}

function privateV6(host: string): string | null {
  const h = host.toLowerCase();
  if (h === "::1") return "a loopback address (this machine)";
  if (h === "::") return "an unspecified address";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) {
    const v4 = ipv4(mapped[1]);
    return v4 ? privateV4(v4) : null;
  }
  // The URL parser writes mapped IPv4 in hex (::ffff:7f00:1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return privateV4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (/^f[cd][0-9a-f]{0,2}:/.test(h)) return "a unique local address (IPv6 ULA)";
  if (/^fe[89ab][0-9a-f]?:/.test(h)) return "a link-local address";
  return null;
}

/**
 * Why a webhook URL's host is on a private network, or null when it is not. The service
 * delivers from its own network, where such addresses reach its neighbours or nothing at
 * all — a warning, not a refusal, since a self-hosted service may mean exactly that.
 * Names are judged by what they say (localhost, .local, .internal); a public name that
 * resolves privately is not caught here.
 */
export function privateAddressReason(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host.startsWith("[") && host.endsWith("]")) return privateV6(host.slice(1, -1));
  const v4 = ipv4(host);
  if (v4) return privateV4(v4);
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name (this machine)";
  if (/\.(local|internal|lan|home\.arpa)$/.test(host)) return "a name that only resolves inside a private network";
  return null;
}
