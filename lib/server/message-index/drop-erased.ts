import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import type { StreamEvent } from "./stream-event";

/**
 * Messages new to the index that an erasure removed (lib/server/retention/erase.ts): the
 * service still announces them, the index does not take them back. Their row and the events
 * just recorded for them are deleted again, and those events count as not new. Only messages
 * new to the index are asked about (in the statement that creates them), which an erased one
 * always is, so other events pay nothing.
 */
export async function dropErased(
  tx: Db,
  events: StreamEvent[],
  fresh: boolean[],
  candidates: { g: { projectId: string; messageId: string }; erased: boolean }[],
  created: Map<string, boolean>,
): Promise<void> {
  let any = false;
  for (const c of candidates) {
    if (!created.get(`${c.g.projectId}\u0000${c.g.messageId}`)) continue;
    c.erased = any = true;
    await tx.execute(sql`delete from indexed_events where project_id = ${c.g.projectId} and message_id = ${c.g.messageId}`);
    await tx.execute(sql`delete from indexed_messages where id = ${c.g.messageId} and project_id = ${c.g.projectId}`);
  }
  if (!any) return;
  events.forEach((s, i) => {
    if (fresh[i] && created.get(`${s.projectId}\u0000${s.event.messageId}`)) fresh[i] = false;
  });
}
