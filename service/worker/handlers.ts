import type { JobHandlers } from "./queue";

/**
 * Every kind of queued work, by name. Each area adds its handlers here:
 * message lifecycle and scheduled sends, webhook deliveries, domain checks.
 */
export const jobHandlers: JobHandlers = {};
