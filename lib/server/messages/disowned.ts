import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import type { Db } from "@/lib/server/db";
import { markInsightDirty } from "@/lib/server/insight/dirty";

/**
 * A message the index knows only from deliveries — created by the event stream (source
 * `webhook`) and never confirmed by a read of the service (`checked_at` still empty) — that the
 * service keeps answering 404 for: removed, with the events the deliveries brought. The
 * interface does not say what a 404 means, so nothing else is ever removed on one: a message
 * the dashboard sent, looked up or once read stays, whatever the service answers later; and
 * the caller asks only after the re-read worker's last try (a message may not be readable at
 * once). A later delivery for it makes it again, and is judged again the same way.
 */
export async function removeDisownedPlaceholder(d: Db, projectId: string, messageId: string): Promise<boolean> {
  return d.transaction(async (tx) => {
    const gone = rowsOf(
      await tx.execute(sql`
        delete from indexed_messages
         where project_id = ${projectId} and id = ${messageId} and source = 'webhook' and checked_at is null
        returning id`),
    );
    if (!gone.length) return false;
    await tx.execute(sql`delete from indexed_events where project_id = ${projectId} and message_id = ${messageId}`);
    await markInsightDirty(tx, projectId, [messageId]);
    return true;
  });
}
