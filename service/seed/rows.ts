import type { MessageRow } from "../lib/events";
import { newId } from "../lib/ids";
import type { Composed } from "./content";
import type { Person } from "./people";
import type { Random } from "./random";

/** Ids in the service's format (time first, so they sort by creation), the random part from the seed. */
export function seededId(prefix: string, at: number, random: Random): string {
  return newId(prefix, at).slice(0, prefix.length + 11) + random.chars("0123456789abcdefghjkmnpqrstvwxyz", 12);
}

/** An outbound message row as the service stores it; `fields` fill in what the caller knows. */
export function messageRow(input: { projectId: string }, id: string, intent: { t: number; person: Person; composed: Composed }, fields: Partial<MessageRow>): MessageRow {
  const created = new Date(intent.t);
  return {
    id, projectId: input.projectId, direction: "outbound", status: "queued",
    from: intent.composed.from.email, fromName: intent.composed.from.name,
    to: [{ email: intent.person.email, name: intent.person.name }], cc: [], bcc: [], replyTo: [],
    subject: null, html: null, text: null, headers: intent.composed.headers, tags: intent.composed.tags,
    templateId: null, data: null, scheduledAt: null,
    rfcMessageId: `<${id}@${intent.composed.from.email.split("@")[1]}>`, inReplyTo: null, references: [], threadId: id,
    createdAt: created, updatedAt: created,
    ...fields,
  };
}

