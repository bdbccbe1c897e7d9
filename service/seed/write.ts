import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { demoHistories, messageEvents, messages, suppressions, templates } from "../db/schema";
import { SEND_JOB } from "../lib/accept";
import { enqueueMany } from "../worker/queue";
import { generateHistory, type HistoryPlan, type HistoryProfile, type TemplateSlug } from "./history";

/** Rows per INSERT: large enough to be few statements, small enough for the parameter limit (65,535). */
const CHUNK = { messages: 250, events: 2000 };

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** FNV-1a: a stable number from a project's name, so each project has its own history. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/**
 * Stores a generated history in one transaction with multi-row inserts into the service's own
 * tables, exactly as its pipeline leaves them (rendered messages, their events in order,
 * suppressions the bounces and complaints caused, send jobs of the scheduled ones), and marks
 * the project as holding a history that its first webhook endpoint will receive.
 */
export async function writeHistory(db: Db, projectId: string, plan: HistoryPlan): Promise<void> {
  await db.transaction(async (tx) => {
    for (const rows of chunks(plan.messages, CHUNK.messages)) await tx.insert(messages).values(rows);
    for (const rows of chunks(plan.events, CHUNK.events)) await tx.insert(messageEvents).values(rows);
    if (plan.suppressions.length) {
      await tx.insert(suppressions).values(plan.suppressions.map((s) => ({ projectId, ...s }))).onConflictDoNothing();
    }
    await enqueueMany(tx, plan.scheduled.map((s) => ({ kind: SEND_JOB, payload: { messageId: s.messageId }, runAt: s.runAt })));
    await tx.insert(demoHistories).values({ projectId, messages: plan.messages.length, events: plan.events.length });
  });
}

/** Generates and stores one project's month, with its stored templates' content and ids. */
export async function seedHistory(db: Db, project: { id: string; externalId: string; domain: string; fromName: string }, opts: { now: Date; profile: HistoryProfile; days?: number }): Promise<HistoryPlan> {
  const stored = await db.select().from(templates).where(eq(templates.projectId, project.id));
  const bySlug = new Map(stored.map((t) => [t.slug, t]));
  const pick = (slug: TemplateSlug) => {
    const t = bySlug.get(slug);
    if (!t) throw new Error(`the demo history needs the '${slug}' template in ${project.externalId}`);
    return { id: t.id, subject: t.subject, html: t.html, text: t.text };
  };
  const plan = generateHistory({
    seed: seedOf(project.externalId), now: opts.now, days: opts.days ?? 30, projectId: project.id, domain: project.domain, fromName: project.fromName,
    templates: { receipt: pick("receipt"), welcome: pick("welcome"), "password-reset": pick("password-reset") }, profile: opts.profile,
  });
  await writeHistory(db, project.id, plan);
  return plan;
}
