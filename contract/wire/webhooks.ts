import { z } from "zod";
import { eventType } from "./events";

export const createWebhookRequest = z.object({
  url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }),
  eventTypes: z.array(eventType, { error: "is required" }).min(1, { error: "choose at least one event type" }),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequest>;

export const webhook = z.object({
  id: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  eventTypes: z.array(z.string()),
  /** Present, in full, only in the create response; redacted in lists. */
  signingSecret: z.string().optional(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhook>;

/**
 * One event as the local service (service/) delivers it: a live event is one request; the
 * hand-over of a demo project's past sends several messages' events together (each message's
 * in order), as a list of these (webhookDeliveryBody). The dashboard's ingest does not require this shape (any service
 * chooses its own, and the ingest reads any of them); the local service builds it and its
 * tests read it.
 */
export const webhookPayload = z.object({
  type: z.string(),
  createdAt: z.string(),
  data: z.object({
    messageId: z.string(),
    project: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    from: z.string(),
    to: z.array(z.string()),
    subject: z.string().nullable(),
    status: z.string(),
    eventData: z.record(z.string(), z.unknown()).optional().default({}),
    text: z.string().nullable().optional(),
    html: z.string().nullable().optional(),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

/** Body of one signed delivery of the local service: one event, or a list of past events (each message's in order). */
export const webhookDeliveryBody = z.union([webhookPayload, z.array(webhookPayload).min(1)]);
