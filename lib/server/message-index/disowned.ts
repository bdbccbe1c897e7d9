import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { isAppError } from "@/lib/errors";
import type { Db } from "@/lib/server/db";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { service } from "@/lib/server/service";

/**
 * A message the index knows only from deliveries — created by the event stream (source
 * `webhook`) and never confirmed by a read of the service (`checked_at` still empty) — that the
 * service keeps refusing to hand out: removed, with the events the deliveries brought.
 *
 * The interface states no status or code for a message it does not know (section 7: "status
 * codes for … not-found failures: not shown"; 404 is only what the bundled and the contrarian
 * services chose). What it does state is that 429 and 5xx answers are transient; so any other
 * error answer (a 4xx) is the service's refusal of that read, whatever its status. A refused
 * key or project is answered that way too, for every message alike; so a placeholder goes only
 * when, at that moment, the same key reads another message of the project, one a read
 * confirmed: then the refusal is about this message. Nothing else is ever removed: a message the
 * dashboard sent, looked up or once read stays, whatever the service answers later; and the
 * caller asks only after the re-read worker's last try (a message may not be readable at
 * once). A later delivery for it makes it again, and is judged again the same way.
 */
export type DisownedOutcome = "removed" | "not_placeholder" | "unverified";

/** The service refused this read, by the interface's words: an error answer that is neither a 429 nor a 5xx. */
export function refusedByService(e: unknown): boolean {
  return isAppError(e) && e.status >= 400 && e.status < 500 && e.status !== 429;
}

export async function removeDisownedPlaceholder(d: Db, project: { id: string; externalId: string }, messageId: string): Promise<DisownedOutcome> {
  const placeholder = rowsOf(
    await d.execute(sql`
      select 1 from indexed_messages
       where project_id = ${project.id} and id = ${messageId} and source = 'webhook' and checked_at is null`),
  );
  if (!placeholder.length) return "not_placeholder";
  if (!(await keyReadsProjectMessages(d, project, messageId))) return "unverified";
  return d.transaction(async (tx) => {
    const gone = rowsOf(
      await tx.execute(sql`
        delete from indexed_messages
         where project_id = ${project.id} and id = ${messageId} and source = 'webhook' and checked_at is null
        returning id`),
    );
    if (!gone.length) return "not_placeholder";
    await tx.execute(sql`delete from indexed_events where project_id = ${project.id} and message_id = ${messageId}`);
    await markInsightDirty(tx, project.id, [messageId]);
    return "removed";
  });
}

/**
 * One read of the project's most recently confirmed message (a past `checked_at`; a future one
 * marks a message given up on): whether the service hands out this project's messages to this
 * key now. No such message, or any failure, is a no: the placeholder is kept.
 */
async function keyReadsProjectMessages(d: Db, project: { id: string; externalId: string }, besides: string): Promise<boolean> {
  const [control] = rowsOf<{ id: string }>(
    await d.execute(sql`
      select id from indexed_messages
       where project_id = ${project.id} and id <> ${besides} and checked_at <= now()
       order by checked_at desc limit 1`),
  );
  if (!control) return false;
  try {
    await service.emails.get(project.externalId, control.id);
    return true;
  } catch {
    return false;
  }
}
