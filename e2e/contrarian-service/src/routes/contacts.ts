import { Hono } from "hono";
import { z } from "zod";
import { findInReach, parse, projectOf, readJson } from "../http";
import { newId } from "../ids";
import { conflict } from "../problems";
import type { Env } from "../runtime";
import { contactView } from "../views";

const createBody = z.object({
  email: z.string({ error: "is required" }).regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>.]+$/, "must be an email address"),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  subscribed: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const contacts = new Hono<Env>()
  .post("/v1/contacts", async (c) => {
    const projectId = projectOf(c, true);
    const body = parse(createBody, await readJson(c));
    const store = c.get("rt").store;
    // Addresses are kept as written; a second contact with the same address (any case) is a conflict.
    if (store.contacts.some((x) => x.projectId === projectId && x.email.toLowerCase() === body.email.toLowerCase())) {
      throw conflict("email", "a contact with this address already exists");
    }
    const subscribed = body.subscribed ?? true;
    const created = {
      id: newId("ct"),
      projectId,
      email: body.email,
      firstName: body.firstName || null,
      lastName: body.lastName || null,
      subscribed,
      unsubscribedAt: subscribed ? null : new Date(),
      metadata: body.metadata ?? {},
      createdAt: new Date(),
    };
    store.contacts.push(created);
    return c.json(contactView(created), 201);
  })
  .get("/v1/contacts/:id", (c) => {
    const id = c.req.param("id");
    return c.json(contactView(findInReach(c, c.get("rt").store.contacts, (x) => x.id === id, `Contact ${id}`)));
  })
  // Resubscribing changes the contact only; suppressions of the address stay as they are.
  .post("/v1/contacts/:id/resubscribe", (c) => {
    const id = c.req.param("id");
    const contact = findInReach(c, c.get("rt").store.contacts, (x) => x.id === id, `Contact ${id}`);
    contact.subscribed = true;
    contact.unsubscribedAt = null;
    return c.json(contactView(contact));
  });
