import { z } from "zod";
import { emailAddress, jsonObject } from "./common";

const name = z.string().trim().max(200, { error: "must be at most 200 characters" });

export const createContactRequest = z.object({
  email: emailAddress,
  firstName: name.optional(),
  lastName: name.optional(),
  subscribed: z.boolean({ error: "must be true or false" }).optional(),
  metadata: jsonObject.optional(),
});
export type CreateContactRequest = z.infer<typeof createContactRequest>;

export const contact = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable().optional().default(null),
  lastName: z.string().nullable().optional().default(null),
  subscribed: z.boolean(),
  unsubscribedAt: z.string().nullable().optional().default(null),
  metadata: jsonObject.optional().default({}),
  createdAt: z.string(),
});
export type Contact = z.infer<typeof contact>;

/** What a stored contact row of either program (the service's contacts, the dashboard's index) reads as on the wire, the person and their subscription; dates as ISO strings. */
export const contactPerson = (row: { id: string; email: string; firstName: string | null; lastName: string | null; subscribed: boolean; unsubscribedAt: Date | null }) => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  subscribed: row.subscribed,
  unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
});
