import "server-only";
import { AppError } from "@/lib/errors";
import type { z } from "zod";
import type { Contact, CreateContactRequest } from "@/lib/schemas/contacts";
import type { contactLookupQuery, ContactSearchPage, ResubscribeRequest } from "@/lib/schemas/contacts-form";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { service } from "@/lib/server/service";
import { contactIdByEmail, rememberContacts, searchContactsIndex } from "./index-store";

export async function createContact(project: Project, actor: Actor, input: CreateContactRequest): Promise<Contact> {
  return withAudit({ actor, action: "contact.create", project: project.externalId, target: input.email, detail: { subscribed: input.subscribed ?? true } }, async () => {
    const created = await service.contacts.create(project.externalId, input);
    await rememberContacts(project.id, [created], "created");
    return created;
  });
}

/**
 * By id from the service; by email through the dashboard's index (the interface cannot look
 * contacts up by address), then fresh from the service. Either way the index is updated.
 */
export async function lookupContact(project: Project, q: z.output<typeof contactLookupQuery>): Promise<Contact> {
  let id = q.id;
  if (!id) {
    id = (await contactIdByEmail(project.id, q.email!)) ?? undefined;
    if (!id) {
      throw new AppError(404, "not_found", "email: the dashboard has not seen a contact with this address; look it up by its id, or create it", "email");
    }
  }
  const contact = await service.contacts.get(project.externalId, id);
  await rememberContacts(project.id, [contact], "lookup");
  return contact;
}

export async function resubscribeContact(project: Project, actor: Actor, id: string, { reason }: ResubscribeRequest): Promise<Contact> {
  const before = await service.contacts.get(project.externalId, id);
  return withAudit(
    { actor, action: "contact.resubscribe", project: project.externalId, target: before.email, detail: { contactId: id, reason, wasSubscribed: before.subscribed, unsubscribedAt: before.unsubscribedAt } },
    async () => {
      const contact = await service.contacts.resubscribe(project.externalId, id);
      await rememberContacts(project.id, [contact], "lookup");
      return contact;
    },
  );
}

export const searchContacts = (project: Project, q: string, page: number): Promise<ContactSearchPage> => searchContactsIndex(project.id, q, 50, (page - 1) * 50);
