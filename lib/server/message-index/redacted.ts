import "server-only";
import type { indexedMessages } from "@/lib/server/db/schema/messages";
import type { Redactor } from "@/lib/server/redaction/redactor";

type MessageRow = typeof indexedMessages.$inferInsert;

/**
 * A message row as the index may hold it after the project's erasures: every field that can
 * name an address — sender, recipients, subject, bodies, headers, tags, merge data — passed
 * through the redactor (lib/server/redaction/redactor.ts). Fields the row lacks stay absent.
 */
export function redactedMessage<T extends Partial<MessageRow>>(row: T, r: Redactor): T {
  if (!r.active) return row;
  const out: Partial<MessageRow> = { ...row };
  if (row.from !== undefined) out.from = r.one(row.from);
  if (row.to !== undefined) out.to = r.list(row.to as string[]);
  if (row.cc !== undefined) out.cc = r.list(row.cc as string[]);
  if (row.bcc !== undefined) out.bcc = r.list(row.bcc as string[]);
  if (row.subject !== undefined) out.subject = r.maybe(row.subject);
  if (row.html !== undefined) out.html = r.maybe(row.html);
  if (row.text !== undefined) out.text = r.maybe(row.text);
  if (row.headers !== undefined) out.headers = r.json(row.headers);
  if (row.tags !== undefined) out.tags = r.json(row.tags);
  if (row.templateData !== undefined) out.templateData = r.json(row.templateData);
  return out as T;
}
