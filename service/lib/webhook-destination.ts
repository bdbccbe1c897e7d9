import { inspectDestination, type DestinationPolicy } from "../../contract/net/destination";
import type { Deps } from "../context";
import { badRequest } from "./errors";

/** The webhook destination policy of this service, from its configuration. */
export function webhookPolicy(deps: Deps): DestinationPolicy {
  return { allowHosts: deps.config.SERVICE_WEBHOOK_ALLOW_HOSTS, allowPrivate: deps.config.SERVICE_WEBHOOK_ALLOW_PRIVATE };
}

/**
 * The check when an endpoint is created: a URL that points (or resolves) at this machine,
 * the local network or a metadata service is a 400 on `url`. A name that does not resolve
 * right now is accepted — every delivery is checked again when it connects, on the address
 * it actually connects to.
 */
export async function assertWebhookDestination(deps: Deps, url: string): Promise<void> {
  const result = await inspectDestination(url, webhookPolicy(deps), deps.resolve);
  if (result.ok || result.code === "unresolved") return;
  throw badRequest(
    `url: ${result.reason}; webhooks are delivered only to public addresses (SERVICE_WEBHOOK_ALLOW_HOSTS or SERVICE_WEBHOOK_ALLOW_PRIVATE allow others)`,
    "url",
    "destination_not_allowed",
  );
}
