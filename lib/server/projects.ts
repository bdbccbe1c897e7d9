import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import { AppError, isAppError } from "@/lib/errors";
import type { z } from "zod";
import type { createProjectRequest, ProjectView as Project, updateProjectRequest } from "@/lib/schemas/projects";
import { withAudit, type AuditActor } from "./audit";
import { db } from "./db";
import { projects, type ProjectRow } from "./db/schema/core";
import { autoConnectEventStream } from "./event-stream/connect";
import { service } from "./service";

export function toProject(row: ProjectRow): Project {
  return { id: row.id, externalId: row.externalId, name: row.name, createdAt: row.createdAt.toISOString() };
}

export async function listAllProjects(): Promise<Project[]> {
  const d = await db();
  return (await d.select().from(projects).orderBy(asc(projects.name), asc(projects.externalId))).map(toProject);
}

/** The projects a user may open: all of them, or the ones granted. */
export async function listProjectsForUser(user: { allProjects: boolean; projectIds: readonly string[] }): Promise<Project[]> {
  if (user.allProjects) return listAllProjects();
  if (user.projectIds.length === 0) return [];
  const d = await db();
  const rows = await d
    .select()
    .from(projects)
    .where(inArray(projects.id, user.projectIds))
    .orderBy(asc(projects.name), asc(projects.externalId));
  return rows.map(toProject);
}

export async function getProject(externalId: string): Promise<Project | null> {
  const d = await db();
  const [row] = await d.select().from(projects).where(eq(projects.externalId, externalId)).limit(1);
  return row ? toProject(row) : null;
}

export async function getProjectById(id: string): Promise<Project | null> {
  const d = await db();
  const [row] = await d.select().from(projects).where(eq(projects.id, id)).limit(1);
  return row ? toProject(row) : null;
}

/**
 * Asks the service whether it knows the project: the cheapest read that names one. A
 * 400/403/404 means it does not; other failures (service down) are passed on as they are.
 */
export async function checkProjectWithService(externalId: string): Promise<void> {
  try {
    await service.projects.check(externalId);
  } catch (e) {
    if (isAppError(e) && [400, 403, 404, 422].includes(e.status)) {
      throw new AppError(
        400,
        "unknown_project",
        `externalId: the email service does not accept "${externalId}" as a project (${e.message})`,
        "externalId",
      );
    }
    throw e;
  }
}

export async function registerProject(
  { externalId, name }: z.output<typeof createProjectRequest>,
  actor: AuditActor,
  opts: { checkWithService?: boolean; connectEventStream?: boolean } = {},
): Promise<Project> {
  const project = await withAudit({ actor, action: "project.register", project: externalId, target: externalId, detail: { name: name ?? externalId } }, async () => {
    if (await getProject(externalId)) {
      throw new AppError(409, "conflict", "externalId: this project is already registered", "externalId");
    }
    if (opts.checkWithService !== false) await checkProjectWithService(externalId);
    const d = await db();
    const [row] = await d
      .insert(projects)
      .values({ externalId, name: name ?? externalId })
      .onConflictDoNothing({ target: projects.externalId })
      .returning();
    if (!row) throw new AppError(409, "conflict", "externalId: this project is already registered", "externalId");
    return toProject(row);
  });
  // The message index's event stream (issue 4): on a local service it connects by itself. In
  // the background, after this answer: it never fails or slows the registration (it logs and
  // audits its own failure; an admin can press "Connect event stream" later). At start-up the
  // start connects every project once itself (connectEventStreamsInBackground), so it asks
  // for no second connection here.
  if (opts.connectEventStream !== false) setTimeout(() => void autoConnectEventStream(project, actor), 0);
  return project;
}

export async function updateProject(id: string, { name }: z.output<typeof updateProjectRequest>, actor: AuditActor): Promise<Project> {
  const existing = await requireProject(id);
  return withAudit(
    { actor, action: "project.update", project: existing.externalId, target: existing.externalId, detail: { from: existing.name, to: name } },
    async () => {
      const d = await db();
      const [row] = await d.update(projects).set({ name }).where(eq(projects.id, id)).returning();
      if (!row) throw new AppError(404, "not_found", "Project not found.");
      return toProject(row);
    },
  );
}

/** Forgets the project here (and who had access to it); nothing is deleted at the service. */
export async function removeProject(id: string, actor: AuditActor): Promise<void> {
  const existing = await requireProject(id);
  await withAudit(
    { actor, action: "project.remove", project: existing.externalId, target: existing.externalId, detail: { name: existing.name } },
    async () => {
      const d = await db();
      await d.delete(projects).where(eq(projects.id, id));
    },
  );
}

async function requireProject(id: string): Promise<Project> {
  const project = await getProjectById(id);
  if (!project) throw new AppError(404, "not_found", "Project not found.");
  return project;
}
