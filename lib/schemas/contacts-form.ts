import { z } from "zod";
import { createContactRequest } from "./contacts";

/**
 * The contact form: the wire shape (createContactRequest) with metadata as key/value rows,
 * which is how a person types it. `toCreateContact` gives the POST /v1/contacts body.
 */
export const metadataRow = z.object({
  key: z.string().trim().min(1, { error: "is required" }).max(100, { error: "must be at most 100 characters" }),
  value: z.string().max(2000, { error: "must be at most 2000 characters" }),
});

export const contactForm = createContactRequest
  .omit({ metadata: true, subscribed: true })
  .extend({ subscribed: z.boolean(), metadata: z.array(metadataRow) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.metadata.forEach((row, i) => {
      if (seen.has(row.key)) ctx.addIssue({ code: "custom", path: ["metadata", i, "key"], message: "is given twice" });
      seen.add(row.key);
    });
  });
export type ContactForm = z.infer<typeof contactForm>;

export function toCreateContact(v: ContactForm): z.infer<typeof createContactRequest> {
  return createContactRequest.parse({
    email: v.email,
    ...(v.firstName ? { firstName: v.firstName } : {}),
    ...(v.lastName ? { lastName: v.lastName } : {}),
    subscribed: v.subscribed,
    ...(v.metadata.length ? { metadata: Object.fromEntries(v.metadata.map((r) => [r.key, r.value])) } : {}),
  });
}

/** Resubscribing overrides the person's own opt-out: the reason goes to the audit log. */
export const resubscribeRequest = z.object({
  reason: z.string({ error: "is required" }).trim().min(3, { error: "is required: say why this person is resubscribed" }).max(500, { error: "must be at most 500 characters" }),
});
export type ResubscribeRequest = z.infer<typeof resubscribeRequest>;

/** Look-up by the service's id or by an address the dashboard has seen. */
export const contactLookupQuery = z
  .object({ id: z.string().trim().min(1).max(200).optional(), email: z.string().trim().min(1).max(254).optional() })
  .refine((v) => Boolean(v.id) !== Boolean(v.email), { path: ["id"], error: "give either an id or an email address" });

export const contactSearchQuery = z.object({
  q: z.string().max(200).default(""),
  page: z.coerce.number({ error: "must be a page number" }).int().min(1).max(10_000).default(1),
});

/** A contact as the dashboard's index knows it (GET /api/p/[project]/contacts): what it created, imported or looked up. */
export const indexedContactView = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  subscribed: z.boolean(),
  unsubscribedAt: z.string().nullable(),
  source: z.string(),
  createdAt: z.string(),
  seenAt: z.string(),
});
export type IndexedContactView = z.infer<typeof indexedContactView>;
export const contactSearchPage = z.object({ data: z.array(indexedContactView), total: z.number() });
export type ContactSearchPage = z.infer<typeof contactSearchPage>;
