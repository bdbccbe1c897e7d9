import { and, eq, or } from "drizzle-orm";
import type { SendEmail } from "../../contract/wire";
import type { Db } from "../db/client";
import { attachments, messages, templates } from "../db/schema";
import { enqueueMany } from "../worker/queue";
import { isSendingDomainVerified } from "./domains";
import { badRequest, forbidden } from "./errors";
import { insertEvents, type MessageRow, type Tx } from "./events";
import { newId } from "./ids";
import { domainOf, rfcMessageIdFor } from "./messages";

/** The job that takes a queued message out of the queue (at once, or at its `scheduledAt`). */
export const SEND_JOB = "message.send";

type Reader = Pick<Db, "select">;
export type Prepared = { message: MessageRow; attachments: (typeof attachments.$inferInsert)[] };
export type Thread = { threadId: string; inReplyTo: string; references: string[] };

/**
 * Look-ups shared by the items of one request, so a batch of 100 from one sender costs one
 * domain query and one template query, not a hundred.
 */
export function createSendChecks(db: Reader, projectId: string) {
  const domainOk = new Map<string, Promise<boolean>>();
  const templateIds = new Map<string, Promise<string | null>>();

  return {
    /** 403 `domain_not_verified` unless the sender's domain is verified for the project. */
    async assertFrom(email: string, param: string) {
      const domain = domainOf(email);
      if (!domainOk.has(domain)) domainOk.set(domain, isSendingDomainVerified(db, projectId, email));
      if (!(await domainOk.get(domain))) {
        throw forbidden(`${param}: the domain '${domain}' is not a verified sending domain of this project; add and verify it first`,
          param, "domain_not_verified");
      }
    },
    /** The stored template's id for an id or slug of this project; 400 naming the field otherwise. */
    async templateId(idOrSlug: string, param: string): Promise<string> {
      if (!templateIds.has(idOrSlug)) templateIds.set(idOrSlug, findTemplateId(db, projectId, idOrSlug));
      const id = await templateIds.get(idOrSlug);
      if (!id) throw badRequest(`${param}: no template '${idOrSlug}' in this project`, param, "template_not_found");
      return id;
    },
  };
}
export type SendChecks = ReturnType<typeof createSendChecks>;

async function findTemplateId(db: Reader, projectId: string, idOrSlug: string): Promise<string | null> {
  const [row] = await db.select({ id: templates.id }).from(templates)
    .where(and(eq(templates.projectId, projectId), or(eq(templates.id, idOrSlug), eq(templates.slug, idOrSlug))))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Checks one validated send against the project (verified sender, known template) and turns
 * it into the rows to insert. `param` prefixes the fields named in errors (`emails.3.` in a batch).
 */
export async function prepareSend(checks: SendChecks, projectId: string, input: SendEmail, param = "", thread?: Thread): Promise<Prepared> {
  await checks.assertFrom(input.from.email, `${param}from`);
  const templateId = input.templateId ? await checks.templateId(input.templateId, `${param}templateId`) : null;
  const id = newId("msg");
  const now = new Date();
  const message: MessageRow = {
    id,
    projectId,
    direction: "outbound",
    status: "queued",
    from: input.from.email,
    fromName: input.from.name || null,
    to: input.to,
    cc: input.cc ?? [],
    bcc: input.bcc ?? [],
    replyTo: input.replyTo ?? [],
    subject: input.subject ?? null,
    html: input.html ?? null,
    text: input.text ?? null,
    headers: input.headers ?? {},
    tags: input.tags ?? [],
    templateId,
    data: input.data ?? null,
    scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
    rfcMessageId: rfcMessageIdFor(id, input.from.email),
    inReplyTo: thread?.inReplyTo ?? null,
    references: thread?.references ?? [],
    // A new message starts its own thread, named after it.
    threadId: thread?.threadId ?? id,
    createdAt: now,
    updatedAt: now,
  };
  const files = (input.attachments ?? []).map((a, i) => {
    const content = Buffer.from(a.content, "base64");
    // Ids sort by their time part: one millisecond apart keeps the attachments in the order given.
    return { id: newId("att", now.getTime() + i), messageId: id, filename: a.filename, contentType: a.contentType ?? "application/octet-stream", size: content.length, content };
  });
  return { message, attachments: files };
}

/**
 * Accepts prepared messages in the caller's transaction with a few multi-row inserts
 * (messages, attachments, events, jobs), which is what lets a batch of 100 be accepted in
 * one short transaction. Each message gets `accepted` and `queued` events and a send job
 * due now or at its `scheduledAt`.
 */
export async function acceptPrepared(tx: Tx, prepared: Prepared[]): Promise<void> {
  if (!prepared.length) return;
  await tx.insert(messages).values(prepared.map((p) => p.message));
  const files = prepared.flatMap((p) => p.attachments);
  if (files.length) await tx.insert(attachments).values(files);
  await insertEvents(tx, prepared.flatMap(({ message }) => [
    { message, type: "accepted" as const, data: {} },
    { message, type: "queued" as const, data: message.scheduledAt ? { scheduledAt: message.scheduledAt.toISOString() } : {} },
  ]));
  await enqueueMany(tx, prepared.map(({ message }) => ({
    kind: SEND_JOB,
    payload: { messageId: message.id },
    runAt: message.scheduledAt ?? message.createdAt,
  })));
}
