import { z } from "zod";
import { EVENT_TYPES, INBOUND_EVENT_TYPES, OUTBOUND_EVENT_TYPES, type EventType } from "./words";

export { EVENT_TYPES, INBOUND_EVENT_TYPES, OUTBOUND_EVENT_TYPES, type EventType };

export const eventType = z.enum(EVENT_TYPES, { error: `must be one of: ${EVENT_TYPES.join(", ")}` });

/**
 * An element of a message's `events`. The interface leaves its fields unspecified, so
 * parsing is tolerant: anything but `type` may be missing when talking to a real service.
 */
export const messageEvent = z.object({
  type: z.string(),
  createdAt: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional().default({}),
});
export type MessageEvent = z.infer<typeof messageEvent>;
