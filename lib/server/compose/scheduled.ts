import "server-only";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import type { ScheduledView } from "@/lib/schemas/overview";

/**
 * Scheduled sends the dashboard knows of (it records what it sends; the interface cannot
 * list them): still waiting, or due within the last few minutes and not yet reported sent,
 * so a send that is going out right now does not vanish before its status catches up.
 */
export async function listScheduled(project: Project, limit = 200): Promise<ScheduledView[]> {
  const d = await db();
  const rows = await d
    .select({ id: indexedMessages.id, to: indexedMessages.to, subject: indexedMessages.subject, scheduledAt: indexedMessages.scheduledAt, status: indexedMessages.status, source: indexedMessages.source })
    .from(indexedMessages)
    .where(
      and(
        eq(indexedMessages.projectId, project.id),
        gt(indexedMessages.scheduledAt, sql`now() - interval '10 minutes'`),
        inArray(indexedMessages.status, ["queued", "scheduled", "accepted"]),
      ),
    )
    .orderBy(asc(indexedMessages.scheduledAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, scheduledAt: r.scheduledAt!.toISOString() }));
}
