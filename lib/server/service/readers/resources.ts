import { z } from "zod";
import type { CreateApiKeyResponse } from "@/lib/schemas/api-keys";
import type { Contact } from "@/lib/schemas/contacts";
import type { Suppression } from "@/lib/schemas/suppressions";
import type { Webhook } from "@/lib/schemas/webhooks";
import { boolReader, idReader, lenient, nullableText, objectReader, text, timeReader } from "./common";

/** A contact; `subscribed` missing reads as subscribed unless an unsubscribe time is given. */
export const contactReader = z
  .object({
    id: idReader,
    email: text,
    firstName: nullableText,
    lastName: nullableText,
    subscribed: boolReader,
    unsubscribedAt: timeReader,
    metadata: objectReader,
    createdAt: timeReader,
  })
  .transform((c): Contact => ({
    id: c.id,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    subscribed: c.subscribed ?? !c.unsubscribedAt,
    unsubscribedAt: c.unsubscribedAt ?? null,
    metadata: c.metadata ?? {},
    createdAt: c.createdAt ?? "",
  }));

/** A suppression; its reason is free text ("not shown" beyond `bounce`), "unknown" when absent. */
export const suppressionReader = z
  .object({ email: text, reason: nullableText, createdAt: timeReader, messageId: lenient(idReader) })
  .transform((s): Suppression => ({
    email: s.email,
    reason: s.reason?.trim() || "unknown",
    createdAt: s.createdAt ?? "",
    ...(s.messageId ? { messageId: s.messageId } : {}),
  }));

/** A webhook endpoint; `enabled` missing reads as enabled, event types as given. */
export const webhookReader = z
  .object({
    id: idReader,
    url: text,
    enabled: boolReader,
    eventTypes: z.unknown().optional().transform((v) => (Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [])),
    signingSecret: nullableText,
    createdAt: timeReader,
  })
  .transform((w): Webhook => ({
    id: w.id,
    url: w.url,
    enabled: w.enabled ?? true,
    eventTypes: w.eventTypes,
    ...(w.signingSecret ? { signingSecret: w.signingSecret } : {}),
    createdAt: w.createdAt ?? "",
  }));

/** A created API key: the one-time secret is required; the rest as given. */
export const createdKeyReader = z
  .object({
    id: idReader,
    name: nullableText,
    secret: z.string().min(1),
    prefix: nullableText,
    senderId: lenient(z.string().nullable()),
    scopes: z.unknown().optional().transform((v) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined)),
    createdAt: timeReader,
  })
  .transform((k): CreateApiKeyResponse => ({
    id: k.id,
    name: k.name ?? "",
    secret: k.secret,
    ...(k.prefix ? { prefix: k.prefix } : {}),
    ...(k.senderId !== undefined ? { senderId: k.senderId } : {}),
    ...(k.scopes ? { scopes: k.scopes } : {}),
    ...(k.createdAt ? { createdAt: k.createdAt } : {}),
  }));
