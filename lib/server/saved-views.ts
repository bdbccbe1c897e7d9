import "server-only";
import { and, asc, count, eq, or, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import {
  SAVED_VIEW_LIMITS,
  savedViewQuery,
  type CreateSavedViewRequest,
  type SavedView,
  type UpdateSavedViewRequest,
} from "@/lib/schemas/saved-views";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db, type Db } from "@/lib/server/db";
import { users } from "@/lib/server/db/schema/core";
import { savedViews, type SavedViewRow } from "@/lib/server/db/schema/saved-views";
import { redactorFor } from "@/lib/server/redaction/redactor";

/**
 * Saved views of the Messages screen (issue 28). Whoever may read a project's messages keeps
 * private views and sees the shared ones; the route's guard has already checked that, so a
 * user who loses the project loses its views with it. Only the owner changes a view, and an
 * admin a shared one. Every change that touches a shared view is audited; a private view is
 * nobody else's business.
 */

const LOCK_CLASS = 0x5a7e; // saved views: one lock per owner and project, see `underOwnerLock`.

function toView(row: SavedViewRow, owner: string, actor: Actor): SavedView {
  const mine = row.ownerId === actor.id;
  return {
    id: row.id,
    name: row.name,
    shared: row.shared,
    query: row.state,
    owner,
    mine,
    canManage: mine || (row.shared && actor.role === "admin"),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The reader's own views and the project's shared ones, by name. */
export async function listSavedViews(project: Project, actor: Actor): Promise<SavedView[]> {
  const rows = await (await db())
    .select({ view: savedViews, owner: users.email })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .where(and(eq(savedViews.projectId, project.id), or(eq(savedViews.ownerId, actor.id), eq(savedViews.shared, true))))
    .orderBy(asc(savedViews.name), asc(savedViews.id))
    // A menu, not an archive: the first of them by name (README, "Limits").
    .limit(SAVED_VIEW_LIMITS.listed);
  return rows.map((r) => toView(r.view, r.owner, actor));
}

/**
 * Creating, renaming and counting one owner's views in one project take turns, so the limit
 * and the name's uniqueness hold under concurrent requests.
 */
async function underOwnerLock<T>(projectId: string, ownerId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  return (await db()).transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${`${projectId}:${ownerId}`}))`);
    return work(tx as unknown as Db);
  });
}

async function nameTaken(tx: Db, projectId: string, ownerId: string, name: string, except?: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: savedViews.id })
    .from(savedViews)
    .where(and(eq(savedViews.projectId, projectId), eq(savedViews.ownerId, ownerId), eq(savedViews.name, name)))
    .limit(1);
  return !!row && row.id !== except;
}

const nameTakenError = () => new AppError(409, "name_taken", "name: you already have a view of this name in this project", "name");

async function create(project: Project, actor: Actor, body: CreateSavedViewRequest): Promise<SavedView> {
  return underOwnerLock(project.id, actor.id, async (tx) => {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(savedViews)
      .where(and(eq(savedViews.projectId, project.id), eq(savedViews.ownerId, actor.id)));
    if (n >= SAVED_VIEW_LIMITS.perUserAndProject) {
      throw new AppError(409, "limit_reached", `at most ${SAVED_VIEW_LIMITS.perUserAndProject} saved views per user and project: delete one first`);
    }
    // An address erased in the project is not kept in a view (the terms that can hold one).
    const r = await redactorFor(tx, project.id);
    const state = { ...body.state, q: body.state.q && r.text(body.state.q), tag: body.state.tag && r.text(body.state.tag) };
    const name = r.text(body.name);
    if (await nameTaken(tx, project.id, actor.id, name)) throw nameTakenError();
    const [row] = await tx
      .insert(savedViews)
      .values({ projectId: project.id, ownerId: actor.id, name, shared: body.shared, state: savedViewQuery(state) })
      .returning();
    return toView(row, actor.email, actor);
  });
}

export async function createSavedView(project: Project, actor: Actor, body: CreateSavedViewRequest): Promise<SavedView> {
  if (!body.shared) return create(project, actor, body);
  return withAudit({ actor, action: "saved_view.create", project: project.externalId, target: body.name, detail: { shared: true } }, () =>
    create(project, actor, body),
  );
}

/**
 * The view `id` as the actor may change it: another user's private view is not found (its
 * existence is not theirs to learn), a shared one of someone else is refused unless an admin.
 */
async function manageable(project: Project, actor: Actor, id: string): Promise<SavedViewRow & { owner: string }> {
  const [found] = await (await db())
    .select({ view: savedViews, owner: users.email })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .where(and(eq(savedViews.id, id), eq(savedViews.projectId, project.id), or(eq(savedViews.ownerId, actor.id), eq(savedViews.shared, true))))
    .limit(1);
  if (!found) throw new AppError(404, "not_found", "Saved view not found.");
  if (found.view.ownerId !== actor.id && actor.role !== "admin") {
    throw new AppError(403, "forbidden", "Only the owner of this view (or an admin) may change it.");
  }
  return { ...found.view, owner: found.owner };
}

/** Audits `write` when the view is or becomes shared. */
function auditedIf<T>(shared: boolean, input: { actor: Actor; action: string; project: Project; target: string; detail?: Record<string, unknown> }, write: () => Promise<T>) {
  if (!shared) return write();
  return withAudit({ actor: input.actor, action: input.action, project: input.project.externalId, target: input.target, detail: input.detail }, write);
}

export async function updateSavedView(project: Project, actor: Actor, id: string, body: UpdateSavedViewRequest): Promise<SavedView> {
  const view = await manageable(project, actor, id);
  const detail = { id, ...(body.name !== undefined && { name: body.name }), ...(body.shared !== undefined && { shared: body.shared }) };
  return auditedIf(view.shared || body.shared === true, { actor, action: "saved_view.update", project, target: view.name, detail }, () =>
    underOwnerLock(project.id, view.ownerId, async (tx) => {
      const name = body.name === undefined ? undefined : (await redactorFor(tx, project.id)).text(body.name);
      if (name !== undefined && (await nameTaken(tx, project.id, view.ownerId, name, id))) throw nameTakenError();
      const [row] = await tx
        .update(savedViews)
        .set({ ...(name !== undefined && { name }), ...(body.shared !== undefined && { shared: body.shared }), updatedAt: new Date() })
        .where(and(eq(savedViews.id, id), eq(savedViews.projectId, project.id)))
        .returning();
      if (!row) throw new AppError(404, "not_found", "Saved view not found.");
      return toView(row, view.owner, actor);
    }),
  );
}

export async function deleteSavedView(project: Project, actor: Actor, id: string): Promise<void> {
  const view = await manageable(project, actor, id);
  await auditedIf(view.shared, { actor, action: "saved_view.delete", project, target: view.name, detail: { id } }, async () => {
    const gone = await (await db())
      .delete(savedViews)
      .where(and(eq(savedViews.id, id), eq(savedViews.projectId, project.id)))
      .returning({ id: savedViews.id });
    if (!gone.length) throw new AppError(404, "not_found", "Saved view not found.");
  });
}
