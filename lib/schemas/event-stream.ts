import { z } from "zod";

/**
 * The dashboard's own view of a project's event stream: its health and whether statuses come
 * from it ("live") or from the dashboard reading unsettled messages itself ("polling").
 * Shown on the webhooks screen and, compactly, on the overview.
 */
export const STREAM_MODE_CODES = ["live", "waiting", "not_connected", "refused", "unusable", "silent"] as const;
export type StreamModeCode = (typeof STREAM_MODE_CODES)[number];

export const streamHealthView = z.object({
  lastDeliveryAt: z.string().nullable(),
  lastAcceptedAt: z.string().nullable(),
  acceptedCount: z.number(),
  unusableCount: z.number(),
  refusedCount: z.number(),
  lastReason: z.string().nullable(),
  lastReasonAt: z.string().nullable(),
});
export type StreamHealthView = z.infer<typeof streamHealthView>;

export const streamStatus = z.object({
  connected: z.boolean(),
  url: z.string().nullable(),
  connectedAt: z.string().nullable(),
  mode: z.enum(["live", "polling"]),
  code: z.enum(STREAM_MODE_CODES),
  /** The problem behind `refused`/`unusable`, in words. */
  reason: z.string().nullable(),
  /** Since when this mode's condition holds (the last refusal, the first silent send, the last delivery…). */
  since: z.string().nullable(),
  health: streamHealthView,
  /** Messages waiting to be read back from the service, and a rate-limit pause if one is on. */
  rereads: z.object({ waiting: z.number(), pausedUntil: z.string().nullable() }),
});
export type StreamStatus = z.infer<typeof streamStatus>;
