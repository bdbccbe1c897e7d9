import { z } from "zod";
import { EVENT_TYPES } from "@/contract/wire/words";

/**
 * "Test an endpoint" on the Webhooks screen (issue 29): a sample event in the interface's
 * delivery shape sent to a URL, signed with a secret the user pastes (or not). Bounds (README,
 * "Limits"): the URL and secret lengths here; the request's time, the answer kept and the tests
 * per user in lib/server/webhook-tools/.
 */
export const WEBHOOK_TEST = { urlMaxLength: 2000, secretMaxLength: 500, answerBytes: 1024, timeoutMs: 10_000, perUserPerMinute: 10 } as const;

export const webhookTestRequest = z.object({
  url: z
    .string({ error: "is required" })
    .trim()
    .min(1, { error: "is required" })
    .max(WEBHOOK_TEST.urlMaxLength, { error: `must be at most ${WEBHOOK_TEST.urlMaxLength} characters` })
    .pipe(z.url({ protocol: /^https?$/, error: "must be an http or https URL" })),
  /** A signing secret (`whsec_…` or the raw text); empty: the sample goes unsigned. */
  secret: z
    .string()
    .trim()
    .max(WEBHOOK_TEST.secretMaxLength, { error: `must be at most ${WEBHOOK_TEST.secretMaxLength} characters` })
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: "must not contain control characters" })
    .optional()
    .default(""),
  eventType: z.enum(EVENT_TYPES, { error: "must be one of the interface's event types" }).default("delivery"),
});
export type WebhookTestRequest = z.input<typeof webhookTestRequest>;

export const tlsSummary = z.object({
  protocol: z.string().nullable(),
  cipher: z.string().nullable(),
  authorized: z.boolean(),
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  validTo: z.string().nullable(),
});

export const webhookTestResult = z.object({
  /** The endpoint's HTTP status, or null when no answer came (`error` says why). */
  status: z.number().int().nullable(),
  statusText: z.string().nullable(),
  ms: z.number(),
  /** The https handshake's outcome; null for plain http or when it did not complete. */
  tls: tlsSummary.nullable(),
  /** The first WEBHOOK_TEST.answerBytes of the answer, as text. */
  answer: z.string(),
  answerCut: z.boolean(),
  signed: z.boolean(),
  webhookId: z.string(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResult>;
