import "server-only";
import { eq } from "drizzle-orm";
import { EVENT_TYPES } from "@/lib/schemas/events";
import type { ProjectView as Project } from "@/lib/schemas/projects";
import { withAudit, type AuditActor, SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, withDbLock } from "@/lib/server/db";
import { eventStreamHealth } from "@/lib/server/db/schema/event-stream";
import { eventStreams } from "@/lib/server/db/schema/messages";
import { env } from "@/lib/server/env";
import { service } from "@/lib/server/service";
import { flushStreamHealth } from "./health";
import { sealSecret } from "./secret-box";
import { forgetStreamKeys } from "./stream-cache";

/** The shape lives with our API's message shapes: the screens receive it. */
export type EventStreamState = import("@/lib/schemas/messages-index").EventStreamState;

/** Where the service delivers this project's events: the ingest route under PUBLIC_URL. */
export function ingestUrl(project: Pick<Project, "externalId">): string {
  const base = env().PUBLIC_URL.replace(/\/+$/, "");
  return `${base}/api/ingest/${encodeURIComponent(project.externalId)}`;
}

export async function getEventStream(projectId: string): Promise<EventStreamState> {
  await flushStreamHealth();
  const d = await db();
  const [[row], [health]] = await Promise.all([
    d.select().from(eventStreams).where(eq(eventStreams.projectId, projectId)).limit(1),
    d.select({ lastDeliveryAt: eventStreamHealth.lastAcceptedAt }).from(eventStreamHealth).where(eq(eventStreamHealth.projectId, projectId)).limit(1),
  ]);
  return {
    connected: Boolean(row),
    url: row?.url ?? null,
    lastEventAt: row ? (health?.lastDeliveryAt?.toISOString() ?? null) : null,
    createdAt: row?.createdAt.toISOString() ?? null,
  };
}

/**
 * Creates the dashboard's own webhook on the service for this project, subscribed to every
 * event type, and stores its signing secret sealed. Idempotent: a project already connected
 * is left as it is. Serialised per project across every process on the database (an advisory
 * lock on Postgres), so instances starting together, or a start racing a registration, create
 * one webhook between them instead of one each with all but one deleted again.
 */
export async function connectEventStream(project: Project, actor: AuditActor = SYSTEM_ACTOR): Promise<EventStreamState> {
  const locked = await withDbLock(`mail-dashboard:event-stream:${project.id}`, async () => {
    const existing = await getEventStream(project.id);
    if (existing.connected) return existing;
    const url = ingestUrl(project);
    return withAudit({ actor, action: "event_stream.connect", project: project.externalId, target: url }, async () => {
      const created = await service.webhooks.create(project.externalId, { url, eventTypes: [...EVENT_TYPES] });
      if (!created.signingSecret) {
        await service.webhooks.remove(project.externalId, created.id).catch(() => {});
        throw new Error("the service did not return a signing secret for the new webhook");
      }
      const d = await db();
      const [row] = await d
        .insert(eventStreams)
        .values({ projectId: project.id, webhookId: created.id, url, secretCiphertext: sealSecret(created.signingSecret) })
        .onConflictDoNothing({ target: eventStreams.projectId })
        .returning();
      // Only a writer that does not take the lock (none today) could get here first.
      if (!row) await service.webhooks.remove(project.externalId, created.id).catch(() => {});
      forgetStreamKeys(project.externalId);
      return getEventStream(project.id);
    });
  });
  if (!locked.acquired) throw new Error("event stream: the connection lock was not taken");
  return locked.value;
}

/** A service on this machine is the local one: its events can reach us without an admin. */
export function isLoopbackService(serviceUrl = env().SERVICE_URL): boolean {
  const host = new URL(serviceUrl).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host);
}

/**
 * Called after a project is registered (and at start): connects when the service is local,
 * never fails the caller. A failure is logged (and audited by connectEventStream); an admin
 * can then press "Connect event stream".
 */
export async function autoConnectEventStream(project: Project, actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
  try {
    if (!isLoopbackService()) return;
    await connectEventStream(project, actor);
  } catch (e) {
    // connectEventStream's withAudit has already recorded the failure.
    console.warn(`event stream: could not connect project ${project.externalId}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * At start: every registered project gets its stream when the service is local. The service
 * may still be starting, so projects left unconnected are retried a few times in the
 * background; start-up itself never waits for this. The promise (for tests) settles after
 * the first pass. The start hands in the project list (lib/server/projects.ts), which itself
 * imports this module to connect a project as it is registered.
 */
export function connectEventStreamsInBackground(listProjects: () => Promise<Project[]>, attempts = 6, delayMs = 5_000): Promise<void> {
  if (!isLoopbackService()) return Promise.resolve();
  const run = async (left: number) => {
    let missing = 0;
    for (const project of await listProjects()) {
      if ((await getEventStream(project.id)).connected) continue;
      await autoConnectEventStream(project);
      if (!(await getEventStream(project.id)).connected) missing++;
    }
    if (missing > 0 && left > 1) setTimeout(() => void run(left - 1).catch(report), delayMs).unref?.();
  };
  const report = (e: unknown) => console.warn(`event stream: start-up connection failed: ${e instanceof Error ? e.message : String(e)}`);
  return run(attempts).catch(report);
}
