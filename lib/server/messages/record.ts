import "server-only";
import { inArray, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/server/db";
import { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import type { SendEmail } from "@/lib/schemas/emails";
import type { Address } from "@/lib/schemas/common";
import { recipientRows } from "./recipients";

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

/** The same, inside a transaction the caller holds (a batch chunk records its messages and its outcomes at once). */
export async function recordSentMessagesIn(tx: Db, inputs: RecordSentInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const rows = inputs.map(toRow);
  const addresses = rows.flatMap((row) =>
    recipientRows({ id: row.id, projectId: row.projectId, from: row.from, to: row.to ?? [], cc: row.cc ?? [], bcc: row.bcc ?? [], createdAt: row.createdAt }),
  );
  // Chunked: Postgres caps bind parameters at 65,535 per statement.
  for (let i = 0; i < rows.length; i += 1000) {
    await tx
      .insert(indexedMessages)
      .values(rows.slice(i, i + 1000))
      .onConflictDoUpdate({
        target: indexedMessages.id,
        // A row the webhook or a look-up created first lacks what only the sender knows; fill
        // it in, but keep the folded status. A row we recorded ourselves is left alone.
        set: {
          sentBy: sql`excluded.sent_by`,
          idempotencyKey: sql`excluded.idempotency_key`,
          source: sql`excluded.source`,
          batchJobId: sql`excluded.batch_job_id`,
          html: sql`coalesce(${indexedMessages.html}, excluded.html)`,
          text: sql`coalesce(${indexedMessages.text}, excluded.text)`,
          tags: sql`excluded.tags`,
          templateId: sql`excluded.template_id`,
          templateData: sql`excluded.template_data`,
        },
        setWhere: inArray(indexedMessages.source, ["webhook", "lookup"]),
      });
  }
  for (let i = 0; i < addresses.length; i += 5000) {
    await tx.insert(indexedRecipients).values(addresses.slice(i, i + 5000)).onConflictDoNothing();
  }
  const byProject = new Map<string, string[]>();
  for (const r of rows) {
    const ids = byProject.get(r.projectId);
    if (ids) ids.push(r.id);
    else byProject.set(r.projectId, [r.id]);
  }
  for (const [projectId, ids] of byProject) await markInsightDirty(tx, projectId, ids);
}

export async function recordSentMessage(input: RecordSentInput): Promise<void> {
  await recordSentMessages([input]);
}
