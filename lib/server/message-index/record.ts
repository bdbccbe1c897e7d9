import "server-only";
import { sql } from "drizzle-orm";
import { db, type Db } from "@/lib/server/db";
import type { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { redactorsFor } from "@/lib/server/redaction/redactor";
import type { SendEmail } from "@/lib/schemas/emails";
import type { Address } from "@/lib/schemas/common";
import { recipientRows } from "./recipients";
import { redactedMessage } from "./redacted";

/** What compose, batches and replies hand to the index after the service accepted a send. */
export type RecordSentInput = {
  projectId: string; // dashboard Project.id
  messageId: string; // the service's id
  request: SendEmail; // what was sent
  sentBy: string | null; // Actor.id
  idempotencyKey: string | null;
  source: "dashboard" | "batch";
  batchJobId?: string | null;
  status?: string; // default "queued"
  createdAt?: Date; // default now
};

const formatAddress = (a: Address) => (a.name ? `${a.name} <${a.email}>` : a.email);

function toRow(input: RecordSentInput): typeof indexedMessages.$inferInsert {
  const r = input.request;
  return {
    id: input.messageId,
    projectId: input.projectId,
    direction: "outbound",
    status: input.status ?? "queued",
    from: formatAddress(r.from),
    to: r.to.map(formatAddress),
    cc: (r.cc ?? []).map(formatAddress),
    bcc: (r.bcc ?? []).map(formatAddress),
    subject: r.subject ?? null,
    tags: r.tags ?? [],
    html: r.html ?? null,
    text: r.text ?? null,
    headers: r.headers ?? null,
    templateId: r.templateId ?? null,
    attachmentCount: r.attachments?.length ?? 0,
    templateData: r.templateId && r.data ? r.data : null,
    scheduledAt: r.scheduledAt ? new Date(r.scheduledAt) : null,
    idempotencyKey: input.idempotencyKey,
    sentBy: input.sentBy,
    source: input.source,
    batchJobId: input.batchJobId ?? null,
    createdAt: input.createdAt ?? new Date(),
  };
}

/**
 * One multi-row insert for the messages and one for their addresses. Idempotent on the
 * message id: a retried batch changes nothing, and a row a webhook created first keeps its
 * folded status (never reset to "queued").
 */
export async function recordSentMessages(inputs: RecordSentInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await (await db()).transaction((tx) => recordSentMessagesIn(tx, inputs));
}

/**
 * The same, inside a transaction the caller holds (a batch chunk records its messages and its
 * outcomes at once). Rows travel as one JSON document per statement, unpacked by the database
 * (jsonb_to_recordset): a chunk of 100 messages bound as 2,000 parameters took PGlite several
 * times longer, and a 100,000-row batch records 1,000 chunks. What an erasure took out of the
 * project is taken out of the rows first (lib/server/redaction/redactor.ts).
 */
export async function recordSentMessagesIn(tx: Db, inputs: RecordSentInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const redactors = await redactorsFor(tx, inputs.map((i) => i.projectId));
  const rows = inputs.map((input) => redactedMessage(toRow(input), redactors.get(input.projectId)!));
  const addresses = rows.flatMap((row) =>
    recipientRows({ id: row.id, projectId: row.projectId, from: row.from, to: row.to ?? [], cc: row.cc ?? [], bcc: row.bcc ?? [], createdAt: row.createdAt }),
  );
  // Sliced so one statement's document stays a few megabytes at most, whatever the bodies.
  for (let i = 0; i < rows.length; i += 500) {
    const doc = JSON.stringify(
      rows.slice(i, i + 500).map((r) => ({
        id: r.id,
        project_id: r.projectId,
        direction: r.direction,
        status: r.status,
        from_address: r.from,
        to_addresses: r.to,
        cc: r.cc,
        bcc: r.bcc,
        subject: r.subject,
        tags: r.tags,
        html: r.html,
        text: r.text,
        headers: r.headers,
        template_id: r.templateId,
        attachment_count: r.attachmentCount,
        template_data: r.templateData,
        scheduled_at: r.scheduledAt?.toISOString() ?? null,
        idempotency_key: r.idempotencyKey,
        sent_by: r.sentBy,
        source: r.source,
        batch_job_id: r.batchJobId,
        created_at: (r.createdAt as Date).toISOString(),
      })),
    );
    // A row the webhook or a look-up created first lacks what only the sender knows; fill it
    // in, but keep the folded status. A row we recorded ourselves is left alone.
    await tx.execute(sql`
      insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, cc, bcc, subject, tags, html, text, headers,
                                    template_id, attachment_count, template_data, scheduled_at, idempotency_key, sent_by, source, batch_job_id, created_at)
      select id, project_id, direction, status, from_address, to_addresses, cc, bcc, subject, tags, html, text, headers,
             template_id, attachment_count, template_data, scheduled_at, idempotency_key, sent_by, source, batch_job_id, created_at
        from jsonb_to_recordset(${doc}::jsonb) as x(id text, project_id text, direction text, status text, from_address text, to_addresses jsonb,
             cc jsonb, bcc jsonb, subject text, tags jsonb, html text, text text, headers jsonb, template_id text, attachment_count integer, template_data jsonb,
             scheduled_at timestamptz, idempotency_key text, sent_by text, source text, batch_job_id text, created_at timestamptz)
      on conflict (id) do update set
        sent_by = excluded.sent_by,
        idempotency_key = excluded.idempotency_key,
        source = excluded.source,
        batch_job_id = excluded.batch_job_id,
        html = coalesce(indexed_messages.html, excluded.html),
        text = coalesce(indexed_messages.text, excluded.text),
        tags = excluded.tags,
        template_id = excluded.template_id,
        attachment_count = excluded.attachment_count,
        template_data = excluded.template_data
      where indexed_messages.source in ('webhook', 'lookup')`);
  }
  await insertRecipientRows(tx, addresses);
  const byProject = new Map<string, string[]>();
  for (const r of rows) {
    const ids = byProject.get(r.projectId);
    if (ids) ids.push(r.id);
    else byProject.set(r.projectId, [r.id]);
  }
  for (const [projectId, ids] of byProject) await markInsightDirty(tx, projectId, ids);
}

/** Addresses into `indexed_recipients`, as one JSON document per 5,000; a row already there is kept. */
export async function insertRecipientRows(tx: Db, addresses: (typeof indexedRecipients.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < addresses.length; i += 5000) {
    const doc = JSON.stringify(addresses.slice(i, i + 5000).map((a) => ({ m: a.messageId, p: a.projectId, e: a.email, r: a.role, c: (a.createdAt as Date).toISOString() })));
    await tx.execute(sql`
      insert into indexed_recipients (message_id, project_id, email, role, created_at)
      select m, p, e, r, c from jsonb_to_recordset(${doc}::jsonb) as x(m text, p text, e text, r text, c timestamptz)
      on conflict do nothing`);
  }
}

export async function recordSentMessage(input: RecordSentInput): Promise<void> {
  await recordSentMessages([input]);
}
