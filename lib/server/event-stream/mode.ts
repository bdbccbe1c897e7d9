import "server-only";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { StreamModeCode } from "@/lib/schemas/event-stream";
import { db, type Db } from "@/lib/server/db";
import { eventStreams } from "@/lib/server/db/schema/messages";
import { env } from "@/lib/server/env";
import type { StreamHealth } from "./health";

/**
 * Whether a project's statuses can be left to its event stream ("live") or the dashboard must
 * read its unsettled messages itself ("polling", lib/server/event-stream/reconciler.ts). Polling when:
 *
 * - `not_connected`: the project has no stream;
 * - `refused`: deliveries made with the project's key were refused (their timestamp out of
 *   tolerance: the service's clock, or deliveries held up) and none accepted since. Deliveries
 *   that do not verify are counted, but never move the mode: anyone can send them (./health.ts);
 * - `unusable`: deliveries verify but carry nothing usable, and none usable since;
 * - `silent`: connected, but a message the dashboard sent more than STREAM_SILENT_AFTER_S ago
 *   (scheduled ones from their time) has had no delivery accepted since it was sent.
 *
 * Otherwise live (`live`, or `waiting` before the first delivery).
 */
export type StreamMode = { mode: "live" | "polling"; code: StreamModeCode; reason: string | null; since: Date | null };

type Inputs = { connectedAt: Date | null; health: StreamHealth; silentSince: Date | null };

export function decideMode({ connectedAt, health, silentSince }: Inputs): StreamMode {
  const accepted = health.lastAcceptedAt?.getTime() ?? -Infinity;
  if (!connectedAt) return { mode: "polling", code: "not_connected", reason: null, since: null };
  if (health.lastRefusedAt && health.lastRefusedAt.getTime() > accepted) {
    return { mode: "polling", code: "refused", reason: health.lastReason, since: health.lastRefusedAt };
  }
  if (health.lastUnusableAt && health.lastUnusableAt.getTime() > accepted) {
    return { mode: "polling", code: "unusable", reason: health.lastReason, since: health.lastUnusableAt };
  }
  if (silentSince) return { mode: "polling", code: "silent", reason: null, since: silentSince };
  return health.lastAcceptedAt ? { mode: "live", code: "live", reason: null, since: health.lastAcceptedAt } : { mode: "live", code: "waiting", reason: null, since: connectedAt };
}

/** The send time of the oldest message sent since the last accepted delivery, past the silence allowance; null when none. */
async function silentSince(d: Db, projectId: string, after: Date): Promise<Date | null> {
  const e = env();
  const rows = rowsOf<{ at: Date | string }>(
    await d.execute(sql`
      select coalesce(scheduled_at, created_at) as at from indexed_messages
       where project_id = ${projectId} and direction = 'outbound' and source in ('dashboard', 'batch')
         and created_at > now() - (${String(e.RECONCILE_MAX_AGE_H)}::int * interval '1 hour')
         and coalesce(scheduled_at, created_at) > ${after.toISOString()}::timestamptz
         and coalesce(scheduled_at, created_at) < now() - (${String(e.STREAM_SILENT_AFTER_S)}::int * interval '1 second')
       order by created_at
       limit 1`),
  );
  return rows[0] ? new Date(rows[0].at) : null;
}

export async function streamMode(projectId: string, health: StreamHealth, d?: Db): Promise<StreamMode> {
  const handle = d ?? (await db());
  const [stream] = await handle.select({ createdAt: eventStreams.createdAt }).from(eventStreams).where(eq(eventStreams.projectId, projectId)).limit(1);
  if (!stream) return decideMode({ connectedAt: null, health, silentSince: null });
  const after = new Date(Math.max(stream.createdAt.getTime(), health.lastAcceptedAt?.getTime() ?? 0));
  return decideMode({ connectedAt: stream.createdAt, health, silentSince: await silentSince(handle, projectId, after) });
}
