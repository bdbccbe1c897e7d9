import { z } from "zod";

/**
 * What reached the event stream (issue 29, the Webhooks screen): the newest deliveries per
 * project, verified or not, and what the dashboard did with each. Bounds (README, "Limits"):
 * DELIVERY_LOG.rows per project, and besides them the newest DELIVERY_LOG.problems refused or
 * unusable ones (on a busy project the newest 200 span seconds, and a refusal is what someone
 * comes to look for), the body kept redacted and cut to DELIVERY_LOG.bodyChars.
 */
export const DELIVERY_LOG = { rows: 200, problems: 50, bodyChars: 4096 } as const;

/** The outcomes kept past the newest DELIVERY_LOG.rows, and shown by the log's "Problems only". */
export const PROBLEM_OUTCOMES = ["refused", "unusable"] as const;

export const DELIVERY_OUTCOMES = ["recorded", "duplicate", "unusable", "refused"] as const;

export const webhookDelivery = z.object({
  id: z.string(),
  receivedAt: z.string(),
  webhookId: z.string().nullable(),
  verified: z.boolean(),
  /** "verified", or why the signature or timestamp did not verify. */
  signature: z.string(),
  eventType: z.string().nullable(),
  messageId: z.string().nullable(),
  outcome: z.enum(DELIVERY_OUTCOMES),
  reason: z.string().nullable(),
  /** Addresses masked, secrets removed, cut to DELIVERY_LOG.bodyChars; null when refused before the body was read. */
  body: z.string().nullable(),
  bodyCut: z.boolean(),
  bodyBytes: z.number().int().nullable(),
  /** Whether "Process again" can do anything with it (see processAgainResult). */
  canProcessAgain: z.boolean(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveryList = z.object({ data: z.array(webhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryList>;

/**
 * POST …/webhooks/deliveries/[id]/process: the stored body (redacted) run through the ingest's
 * recording again — an event already recorded stays recorded once — and the message it names
 * read again from the service, whose answer is the truth.
 */
export const processAgainResult = z.object({
  outcome: z.enum(["recorded", "duplicate", "unusable", "reread"]),
  reason: z.string().nullable(),
  /** Message ids queued to be read again from the service. */
  reread: z.array(z.string()),
});
export type ProcessAgainResult = z.infer<typeof processAgainResult>;
