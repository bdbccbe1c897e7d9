import "server-only";
import { Webhook } from "standardwebhooks";
import { fetchPublic, type DestinationPolicy } from "@/contract/net/destination";

/**
 * One signed POST of an alert, per Standard Webhooks: `webhook-id` (the delivery's id, the same
 * on every retry, so the receiver can drop repeats), `webhook-timestamp`, `webhook-signature`
 * over `id.timestamp.body` with the secret. Made with fetchPublic: only public addresses unless
 * the policy allows others, a timeout, redirects not followed. A non-2xx answer is an error.
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export async function postSigned(url: string, secret: string, id: string, body: string, opts: { policy?: DestinationPolicy; timeoutMs?: number; now?: Date } = {}): Promise<void> {
  const at = opts.now ?? new Date();
  const signature = new Webhook(secret).sign(id, at, body);
  const res = await fetchPublic(url, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "mail-dashboard-alerts/1",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    },
    redirect: "manual",
    timeoutMs: opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    policy: opts.policy,
  });
  await res.body?.cancel().catch(() => {});
  if (res.status < 200 || res.status >= 300) throw new Error(`The webhook answered HTTP ${res.status}`);
}
