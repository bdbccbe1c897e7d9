import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { webhookDeliveries, type WebhookDeliveryRow } from "@/lib/server/db/schema/webhook-deliveries";
import { redactorsFor } from "@/lib/server/redaction/redactor";
import { DELIVERY_LOG, PROBLEM_OUTCOMES, type WebhookDelivery, type WebhookDeliveryList } from "@/lib/schemas/webhook-deliveries";
import type { Project } from "@/lib/server/gate/access";
import { HELD_BYTES, keptBody } from "./delivery-log-body";
import { refusalReason, takeUnreadRefusals, type Refusal } from "./delivery-log-refusals";

/**
 * What reached the event stream, per project: the newest DELIVERY_LOG.rows deliveries, verified
 * or not, with what the dashboard did, and the newest DELIVERY_LOG.problems refused or unusable
 * ones even when older (a busy project's newest 200 span seconds). The ingest only notes a delivery in this process's memory
 * (`noteDelivery`: a copy of at most HELD_BYTES of its body, no statement, no await), so its hot
 * path and its bounds are unchanged; the notes are written with the stream's health, every few
 * seconds (./background.ts), and before the log is read. Memory is bounded too: at most
 * MAX_NOTES notes wait, the oldest dropped first (a flood of strangers' posts cannot grow it).
 * Deliveries refused before their body was read (413, 408, 429) are noted apart, coalesced per
 * project and second (./delivery-log-refusals.ts), and join the notes at the flush.
 *
 * A flush writes each project's notes in one transaction that also prunes the project to
 * those rows (at most DELIVERY_LOG.rows + DELIVERY_LOG.problems), under a lock per project, so two instances flushing at once never
 * leave more; under the erasure lock, shared (lib/server/redaction/redactor.ts), so an address
 * erased meanwhile is either taken out here or found by the erasure (lib/server/retention/erase.ts).
 */
export const MAX_NOTES = 2_000;

export type DeliveryNote = {
  projectId: string;
  webhookId: string | null;
  verified: boolean;
  signature: string;
  outcome: WebhookDelivery["outcome"];
  reason?: string | null;
  eventType?: string | null;
  messageId?: string | null;
  /** The body as it arrived, or null when it was refused before it was read. */
  raw?: Uint8Array | null;
};

type Held = Omit<DeliveryNote, "raw"> & { receivedAt: Date; held: Uint8Array | null; bytes: number | null };
type State = { notes: Held[]; dropped: number; flushing: Promise<void> | null };

// On globalThis: the ingest notes, the background flush (instrumentation) writes.
const KEY = Symbol.for("mail-dashboard.delivery-log");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { notes: [], dropped: 0, flushing: null });
}

const MAX_ID_CHARS = 200;
const MAX_WORD_CHARS = 200;
const capped = (s: string | null | undefined, n: number) => (s == null ? null : s.length > n ? `${s.slice(0, n)}…` : s);

/** Notes one delivery for the log (synchronous, no I/O). */
export function noteDelivery(note: DeliveryNote): void {
  const s = state();
  s.notes.push(heldOf(note));
  if (s.notes.length > MAX_NOTES) {
    s.dropped += s.notes.length - MAX_NOTES;
    s.notes.splice(0, s.notes.length - MAX_NOTES);
  }
}

function heldOf({ raw, ...rest }: DeliveryNote): Held {
  // A copy: the ingest's buffer of up to INGEST_MAX_BYTES is not kept alive by a note.
  const held = raw ? Uint8Array.prototype.slice.call(raw, 0, HELD_BYTES) : null;
  return {
    ...rest,
    webhookId: capped(rest.webhookId, MAX_ID_CHARS),
    reason: capped(rest.reason, 1000),
    eventType: capped(rest.eventType, MAX_WORD_CHARS),
    messageId: capped(rest.messageId, MAX_WORD_CHARS),
    receivedAt: new Date(),
    held,
    bytes: raw ? raw.length : null,
  };
}

/** Writes what this process noted since the last flush. Calls do not overlap. */
export async function flushDeliveryLog(): Promise<void> {
  const s = state();
  while (s.flushing) await s.flushing;
  const refusals = takeUnreadRefusals();
  if (s.notes.length === 0 && refusals.length === 0) return;
  const notes = s.notes;
  s.notes = [];
  s.flushing = (async () => {
    const d = await db();
    const byProject = new Map<string, Held[]>();
    for (const n of [...notes, ...(await refusalNotes(d, refusals))]) byProject.set(n.projectId, [...(byProject.get(n.projectId) ?? []), n]);
    // Refusals were kept apart: each project's notes in arrival order again (sort is stable).
    for (const list of byProject.values()) list.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    for (const [projectId, list] of byProject) {
      try {
        await d.transaction((tx) => writeNotes(tx, projectId, list));
      } catch (e) {
        // A project removed meanwhile (foreign key) or a database hiccup: the log is best effort.
        console.warn(`event stream: could not write the delivery log of project ${projectId}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  })().finally(() => {
    s.flushing = null;
  });
  await s.flushing;
}

/** The refusals as notes of the projects they name; a name that is no project (a stranger's) is dropped. One statement. */
async function refusalNotes(d: Db, refusals: Refusal[]): Promise<Held[]> {
  if (refusals.length === 0) return [];
  const names = [...new Set(refusals.map((r) => r.project))];
  let ids: Map<string, string>;
  try {
    ids = new Map((await d.select({ id: projects.id, name: projects.externalId }).from(projects).where(inArray(projects.externalId, names))).map((p) => [p.name, p.id]));
  } catch (e) {
    console.warn(`event stream: could not note the refused deliveries: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  return refusals.flatMap((r) => {
    const projectId = ids.get(r.project);
    if (!projectId) return [];
    // The limit it hit is the reason, which the log shows beside it.
    const signature = "not checked";
    return [{ ...heldOf({ projectId, webhookId: r.webhookId, verified: false, signature, outcome: "refused", reason: refusalReason(r), raw: null }), receivedAt: r.receivedAt }];
  });
}

/** Writes notes of one project on `d` at once (tests: two instances on one Postgres writing together). */
export async function writeDeliveryNotes(d: Db, notes: DeliveryNote[]): Promise<void> {
  const projectId = notes[0]?.projectId;
  if (projectId) await d.transaction((tx) => writeNotes(tx, projectId, notes.map(heldOf)));
}

/** Lock class of the log's prune (two-key form: this, and hashtext of the project id). */
const LOCK_CLASS = 0x57484c47; // "WHLG"

async function writeNotes(tx: Db, projectId: string, notes: Held[]): Promise<void> {
  const erased = (await redactorsFor(tx, [projectId])).get(projectId)!;
  // Only the newest can stay: older notes of this flush are not even written.
  const kept = notes.slice(-DELIVERY_LOG.rows);
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${projectId}))`);
  await tx.insert(webhookDeliveries).values(
    kept.map((n) => {
      const body = n.held ? keptBody(n.held, n.bytes ?? n.held.length, erased) : null;
      return {
        projectId,
        receivedAt: n.receivedAt,
        webhookId: erased.maybe(n.webhookId),
        verified: n.verified,
        signature: n.signature,
        eventType: n.eventType ?? null,
        messageId: erased.maybe(n.messageId ?? null),
        outcome: n.outcome,
        reason: erased.maybe(n.reason ?? null),
        body: body?.body ?? null,
        bodyCut: body?.cut ?? false,
        bodyBytes: n.bytes,
      };
    }),
  );
  // Past the newest DELIVERY_LOG.rows, only the newest DELIVERY_LOG.problems problems stay.
  const problems = sql.join(PROBLEM_OUTCOMES.map((o) => sql`${o}`), sql`, `);
  await tx.execute(sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where project_id = ${projectId}
       order by received_at desc, seq desc offset ${DELIVERY_LOG.rows})
    and id not in (
      select id from webhook_deliveries where project_id = ${projectId} and outcome in (${problems})
       order by received_at desc, seq desc limit ${DELIVERY_LOG.problems})`);
}

/** The project's log, newest first, this process's notes included. */
export async function readDeliveryLog(projectId: string): Promise<WebhookDelivery[]> {
  await flushDeliveryLog();
  const rows = await (await db())
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.projectId, projectId))
    .orderBy(desc(webhookDeliveries.receivedAt), desc(webhookDeliveries.seq))
    .limit(DELIVERY_LOG.rows + DELIVERY_LOG.problems);
  return rows.map(toView);
}

/** GET …/event-stream/deliveries. */
export async function listDeliveries(project: Project): Promise<WebhookDeliveryList> {
  return { data: await readDeliveryLog(project.id) };
}

export async function readDelivery(projectId: string, id: string): Promise<WebhookDeliveryRow | null> {
  const [row] = await (await db())
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row ?? null;
}

/** Recorded, duplicate or unusable, with a whole body to run again or a message to read again. */
export const canProcessAgain = (r: Pick<WebhookDeliveryRow, "verified" | "outcome" | "body" | "bodyCut" | "messageId">) =>
  r.verified && r.outcome !== "refused" && ((r.body !== null && !r.bodyCut) || r.messageId !== null);

function toView(r: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    receivedAt: r.receivedAt.toISOString(),
    webhookId: r.webhookId,
    verified: r.verified,
    signature: r.signature,
    eventType: r.eventType,
    messageId: r.messageId,
    outcome: r.outcome as WebhookDelivery["outcome"],
    reason: r.reason,
    body: r.body,
    bodyCut: r.bodyCut,
    bodyBytes: r.bodyBytes,
    canProcessAgain: canProcessAgain(r),
  };
}

/** Tests: forget what was noted in this process. */
export function resetDeliveryLogMemory(): void {
  takeUnreadRefusals();
  const s = state();
  s.notes = [];
  s.dropped = 0;
}
