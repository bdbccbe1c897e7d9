import { Hono, type Context } from "hono";
import { z } from "zod";
import { findInReach, inReach, parse, projectOf, readJson } from "../http";
import { newId } from "../ids";
import { once } from "../idempotency";
import { fieldPath, invalid, notFound, Problem } from "../problems";
import type { Env } from "../runtime";
import { plainMessage, type StoredMessage } from "../store";
import { renderPart } from "../templates";
import { messageView } from "../views";

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>.]+$/;
const address = z.object({ email: z.string().regex(EMAIL, "must be an email address"), name: z.string().optional() });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const sendBody = z.object({
  from: address,
  to: z.array(address).min(1, "needs at least one recipient"),
  cc: z.array(address).optional(),
  bcc: z.array(address).optional(),
  replyTo: z.array(address).optional(),
  subject: z.string().optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  templateId: z.string().min(1).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  tags: z.array(z.object({ name: z.string().min(1), value: z.string() })).optional(),
  attachments: z
    .array(z.object({ filename: z.string().min(1), content: z.string().regex(BASE64, "must be base64"), contentType: z.string().optional() }))
    .optional(),
  scheduledAt: z.string().optional(),
});

const replyBody = z.object({ html: z.string().optional(), text: z.string().optional(), subject: z.string().optional(), from: address.optional() });

type Ctx = Context<Env>;

/** Validates one send body and builds the message; `prefix` names fields inside a batch item. */
function buildMessage(c: Ctx, projectId: string, raw: unknown, prefix = ""): StoredMessage {
  const body = parse(sendBody, raw, prefix);
  const rt = c.get("rt");
  const at = (field: string) => fieldPath([field], prefix);
  let template = null;
  if (body.templateId) {
    template = rt.store.templates.find((t) => t.projectId === projectId && (t.id === body.templateId || t.slug === body.templateId)) ?? null;
    if (!template) throw invalid([{ field: at("templateId"), message: "no template with this id or slug in the project" }]);
  } else if (body.subject === undefined) {
    throw invalid([{ field: at("subject"), message: "is required unless templateId is given" }]);
  }
  let scheduledAt: Date | null = null;
  if (body.scheduledAt !== undefined) {
    const t = Date.parse(body.scheduledAt);
    if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(body.scheduledAt)) throw invalid([{ field: at("scheduledAt"), message: "must be an ISO 8601 date-time" }]);
    if (t <= Date.now()) throw invalid([{ field: at("scheduledAt"), message: "must be in the future" }]);
    scheduledAt = new Date(t);
  }
  const data = body.data ?? {};
  return {
    id: newId("em"),
    projectId,
    direction: "outbound",
    from: body.from.email,
    to: body.to.map((a) => a.email),
    cc: (body.cc ?? []).map((a) => a.email),
    bcc: (body.bcc ?? []).map((a) => a.email),
    replyTo: (body.replyTo ?? []).map((a) => a.email),
    subject: renderPart(body.subject ?? template?.subject, data, at("subject")),
    html: renderPart(body.html ?? template?.html, data, at("html")),
    text: renderPart(body.text ?? template?.text, data, at("text")),
    headers: body.headers ?? {},
    tags: body.tags ?? [],
    attachments: (body.attachments ?? []).map((a) => ({
      id: newId("at"),
      filename: a.filename,
      contentType: a.contentType ?? "application/octet-stream",
      bytes: Buffer.from(a.content, "base64"),
    })),
    status: "queued",
    events: [],
    createdAt: new Date(),
    scheduledAt,
    templateId: template?.id ?? null,
  };
}

function accept(c: Ctx, m: StoredMessage): { id: string; status: string; object: string } {
  const rt = c.get("rt");
  rt.store.messages.set(m.id, m);
  rt.lifecycle.accept(m);
  return { id: m.id, status: "queued", object: "email" };
}

function findMessage(c: Ctx, id: string): StoredMessage {
  const m = c.get("rt").store.messages.get(id);
  if (!m || !inReach(c, m.projectId)) throw notFound(`Email ${id}`);
  return m;
}

function answer(c: Ctx, result: { status: number; body: unknown; replayed: boolean }): Response {
  if (result.replayed) c.header("Idempotent-Replay", "yes");
  return c.json(result.body as object, result.status as 200);
}

export const emails = new Hono<Env>()
  // Send: 200, not 202 — the interface leaves the success code of this one operation open.
  .post("/v1/emails", async (c) => {
    const projectId = projectOf(c, true);
    const raw = await readJson(c);
    const result = await once(c.get("rt").store, projectId, c.req.header("Idempotency-Key"), async () => ({ status: 200, body: accept(c, buildMessage(c, projectId, raw)) }));
    return answer(c, result);
  })
  // Batch: 207, one entry per item with its index; Idempotency-Key is not honoured here (the interface does not list it).
  .post("/v1/emails/batch", async (c) => {
    const projectId = projectOf(c, true);
    const raw = (await readJson(c)) as { emails?: unknown };
    const list = parse(z.object({ emails: z.array(z.unknown()).min(1, "needs at least one email").max(100, "at most 100 emails") }), raw);
    const data = list.emails.map((item, index) => {
      try {
        return { index, ...accept(c, buildMessage(c, projectId, item)) };
      } catch (e) {
        if (!(e instanceof Problem)) throw e;
        const first = e.errors[0];
        return { index, error: { message: first ? `${first.field}: ${first.message}` : e.detail, code: "invalid_field", param: first?.field ?? "body" } };
      }
    });
    return c.json({ data }, 207);
  })
  .get("/v1/emails/:id", (c) => c.json(messageView(findMessage(c, c.req.param("id")))))
  .post("/v1/emails/:id/reply", async (c) => {
    const original = findMessage(c, c.req.param("id"));
    const body = parse(replyBody, await readJson(c));
    const subject = body.subject ?? (original.subject && /^re:/i.test(original.subject) ? original.subject : `RE: ${original.subject ?? ""}`.trim());
    const inbound = original.direction === "inbound";
    const result = await once(c.get("rt").store, original.projectId, c.req.header("Idempotency-Key"), async () => {
      const reply = plainMessage({
        projectId: original.projectId,
        direction: "outbound",
        from: body.from?.email ?? (inbound ? original.to[0] ?? "" : original.from),
        to: inbound ? [original.replyTo[0] ?? original.from] : original.to,
        subject,
        html: body.html ?? null,
        text: body.text ?? null,
      });
      return { status: 202, body: accept(c, reply) };
    });
    return answer(c, result);
  })
  .get("/v1/emails/:id/attachments", (c) => {
    const m = findMessage(c, c.req.param("id"));
    const base = c.get("rt").publicUrl();
    return c.json({
      data: m.attachments.map((a) => ({ id: a.id, filename: a.filename, contentType: a.contentType, size: a.bytes.length, url: `${base}/blobs/${a.id}`, sha256: null })),
    });
  })
  .get("/blobs/:attachment", (c) => {
    const id = c.req.param("attachment");
    const found = findInReach(
      c,
      [...c.get("rt").store.messages.values()].flatMap((m) => m.attachments.map((a) => ({ projectId: m.projectId, a }))),
      (x) => x.a.id === id,
      `Attachment ${id}`,
    );
    return new Response(new Uint8Array(found.a.bytes), {
      headers: { "Content-Type": found.a.contentType, "Content-Disposition": `attachment; filename="${found.a.filename.replace(/"/g, "")}"` },
    });
  });
