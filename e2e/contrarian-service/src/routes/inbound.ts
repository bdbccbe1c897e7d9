import { Hono } from "hono";
import { z } from "zod";
import { parse, projectOf, readJson } from "../http";
import type { Env } from "../runtime";
import { plainMessage } from "../store";

const simulateBody = z.object({
  to: z.string({ error: "is required" }).min(1, "is required"),
  from: z.string({ error: "is required" }).min(1, "is required"),
  subject: z.string({ error: "is required" }),
  html: z.string().optional(),
  text: z.string().optional(),
});

export const inbound = new Hono<Env>().post("/v1/inbound/simulate", async (c) => {
  const projectId = projectOf(c, true);
  const body = parse(simulateBody, await readJson(c));
  const message = plainMessage({ projectId, direction: "inbound", from: body.from, to: [body.to], subject: body.subject, html: body.html ?? null, text: body.text ?? null });
  const rt = c.get("rt");
  rt.store.messages.set(message.id, message);
  rt.lifecycle.receive(message);
  // Not the message itself: a receipt naming it.
  return c.json({ inbound: { messageId: message.id, receivedAt: message.createdAt.toISOString(), mailbox: body.to } });
});
