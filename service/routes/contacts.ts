import { and, eq } from "drizzle-orm";
import { contact as contactShape, contactPerson, createContactRequest } from "../../contract/wire";
import type { App } from "../context";
import { contacts, suppressions } from "../db/schema";
import { requireProject, requireResource, requireScope } from "../lib/auth";
import { normalizeEmail } from "../lib/contacts";
import { ServiceError } from "../lib/errors";
import { newId } from "../lib/ids";
import { createdInProject, errorResponse, oneById, routesTagged } from "./shared";

type ContactRow = typeof contacts.$inferSelect;
export const toContact = (row: ContactRow) => ({
  ...contactPerson(row),
  metadata: row.metadata,
  createdAt: row.createdAt.toISOString(),
});

const route = routesTagged("Contacts");

const create = route({
  method: "post", path: "/v1/contacts",
  ...createdInProject(createContactRequest, contactShape, "The contact", { 409: errorResponse("The project already has a contact with this address") }),
});

const get = route({
  method: "get", path: "/v1/contacts/{id}",
  ...oneById(contactShape, "The contact", "No such contact"),
});

const resubscribe = route({
  method: "post", path: "/v1/contacts/{id}/resubscribe",
  ...oneById(contactShape, "The contact, now subscribed", "No such contact"),
});

const emptyToNull = (v: string | undefined) => (v ? v : null);

export function register(app: App) {
  app.openapi(create, async (c) => {
    const project = await requireProject(c, "contacts:write");
    const body = c.req.valid("json");
    const email = normalizeEmail(body.email);
    const subscribed = body.subscribed ?? true;
    const db = c.get("deps").db;
    const [row] = await db.insert(contacts).values({
      id: newId("contact"), projectId: project.id, email,
      firstName: emptyToNull(body.firstName), lastName: emptyToNull(body.lastName),
      subscribed, unsubscribedAt: subscribed ? null : new Date(), metadata: body.metadata ?? {},
    }).onConflictDoNothing().returning();
    if (!row) {
      const [existing] = await db.select({ id: contacts.id }).from(contacts)
        .where(and(eq(contacts.projectId, project.id), eq(contacts.email, email)));
      throw new ServiceError(409, "contact_exists", `email: the project already has a contact for ${email} (${existing?.id})`, "email");
    }
    return c.json(toContact(row), 201);
  });

  app.openapi(get, async (c) => {
    requireScope(c.get("auth"), "contacts:read");
    const { id } = c.req.valid("param");
    const [row] = await c.get("deps").db.select().from(contacts).where(eq(contacts.id, id)).limit(1);
    return c.json(toContact(await requireResource(c, row, "Contact")), 200);
  });

  app.openapi(resubscribe, async (c) => {
    requireScope(c.get("auth"), "contacts:write");
    const { id } = c.req.valid("param");
    const db = c.get("deps").db;
    const [lookedUp] = await db.select().from(contacts).where(eq(contacts.id, id)).limit(1);
    const found = await requireResource(c, lookedUp, "Contact");
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx.update(contacts).set({ subscribed: true, unsubscribedAt: null }).where(eq(contacts.id, id)).returning();
      // Opting in again lifts the person's own unsubscribe, not a bounce, complaint or manual block.
      await tx.delete(suppressions).where(and(
        eq(suppressions.projectId, found.projectId), eq(suppressions.email, found.email), eq(suppressions.reason, "unsubscribe")));
      return updated;
    });
    return c.json(toContact(row), 200);
  });
}
