import "server-only";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import type { Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { eventStreams } from "@/lib/server/db/schema/messages";
import { readStreamHealth } from "./health";
import { streamMode } from "./mode";

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Everything the webhooks screen and the overview say about the project's stream. */
export async function getStreamStatus(project: Pick<Project, "id">): Promise<StreamStatus> {
  const health = await readStreamHealth(project.id);
  const d = await db();
  const [[stream], mode, queue] = await Promise.all([
    d.select({ url: eventStreams.url, createdAt: eventStreams.createdAt }).from(eventStreams).where(eq(eventStreams.projectId, project.id)).limit(1),
    streamMode(project.id, health, d),
    d.execute(sql`
      select (select count(*) from message_rereads where project_id = ${project.id}) as waiting,
             (select until from reread_pauses where project_id = ${project.id} and until > now()) as paused_until`),
  ]);
  const q = rowsOf<{ waiting: number | string; paused_until: Date | string | null }>(queue)[0];
  return {
    connected: Boolean(stream),
    url: stream?.url ?? null,
    connectedAt: iso(stream?.createdAt),
    mode: mode.mode,
    code: mode.code,
    reason: mode.reason,
    since: iso(mode.since),
    health: {
      lastDeliveryAt: iso(health.lastDeliveryAt),
      lastAcceptedAt: iso(health.lastAcceptedAt),
      acceptedCount: health.acceptedCount,
      unusableCount: health.unusableCount,
      refusedCount: health.refusedCount,
      lastReason: health.lastReason,
      lastReasonAt: iso(health.lastReasonAt),
    },
    rereads: { waiting: Number(q?.waiting ?? 0), pausedUntil: q?.paused_until ? new Date(q.paused_until).toISOString() : null },
  };
}
