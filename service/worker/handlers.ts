import { demoReplayJobHandlers } from "../seed/replay";
import { DOMAIN_CHECK, checkDomain } from "./domains";
import { messageJobHandlers } from "./messages";
import type { JobHandlers } from "./queue";
import { webhookJobHandlers } from "./webhooks";

/**
 * Every kind of queued work, by name. Each area adds its handlers here:
 * message lifecycle and scheduled sends, webhook deliveries, domain checks, the demo history's hand-over.
 */
export const jobHandlers: JobHandlers = {
  [DOMAIN_CHECK]: checkDomain,
  ...messageJobHandlers,
  ...webhookJobHandlers,
  ...demoReplayJobHandlers,
};
