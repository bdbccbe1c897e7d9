import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import { bareAddress } from "@/lib/messages/bare-address";

/** Source of the row a simulated inbound message gets when the service's answer names no id. */
export const PLACEHOLDER_SOURCE = "simulated";
/** How far back a placeholder is matched with the real message. */
const WINDOW_MINUTES = 30;

/**
 * A simulated inbound message whose id the service did not return is indexed under an id of
 * the dashboard's own, so it is in Messages at once. When the real message reaches the index
 * (the stream, a re-read), the placeholder with the same sender and subject is removed.
 */
export async function replaceInboundPlaceholder(tx: Db, projectId: string, real: { id: string; from: string | null; subject: string | null }): Promise<void> {
  if (!real.from) return;
  await tx.execute(sql`
    delete from indexed_messages m
     where m.project_id = ${projectId} and m.source = ${PLACEHOLDER_SOURCE} and m.direction = 'inbound' and m.id <> ${real.id}
       and m.subject is not distinct from ${real.subject}
       and m.created_at > now() - (${String(WINDOW_MINUTES)}::int * interval '1 minute')
       and exists (select 1 from indexed_recipients r where r.message_id = m.id and r.role = 'from' and r.email = ${bareAddress(real.from)})`);
}
