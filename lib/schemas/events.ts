import { z } from "zod";

export const OUTBOUND_EVENT_TYPES = [
  "accepted", "queued", "sending", "sent", "delivery", "bounce", "complaint", "open", "click",
  "delivery_delayed", "rejected", "rendering_failure", "failed",
] as const;
export const INBOUND_EVENT_TYPES = ["inbound_received", "inbound_rejected"] as const;
export const EVENT_TYPES = [...OUTBOUND_EVENT_TYPES, ...INBOUND_EVENT_TYPES] as const;
export const eventType = z.enum(EVENT_TYPES, { error: `must be one of: ${EVENT_TYPES.join(", ")}` });
export type EventType = z.infer<typeof eventType>;

export const EVENT_TYPE_GROUPS = {
  "Outbound lifecycle": OUTBOUND_EVENT_TYPES,
  Inbound: INBOUND_EVENT_TYPES,
} as const;

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
