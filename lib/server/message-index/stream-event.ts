import type { DeliveredEvent } from "./payload";

/** One event of the stream, under the key it is taken once by (the delivery's `webhook-id`, `#n` for a list's element). */
export type StreamEvent = { projectId: string; key: string; event: DeliveredEvent };
