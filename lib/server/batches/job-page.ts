import "server-only";
import { notFound } from "next/navigation";
import { can, type Permission, type Role } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import type { FirstRows, JobKind, JobView } from "@/lib/schemas/batch";
import type { Actor, Project } from "@/lib/server/gate/access";
import { getJob, listJobs } from "./jobs";
import { firstRows } from "./first-rows";

/** Who may run a job kind's jobs; who opens its pages the page itself declares to its guardPage() (the rule every screen follows). */
const JOB_WRITE_PERMISSION: Record<JobKind, Permission> = { send: "batches:send", contacts: "contacts:write", suppressions: "suppressions:write" };

/** What a page's guardPage(permission, params) answered. */
type Guarded = { user: Actor; project: Project };

/**
 * A job kind's start page, after its guard: whether the user may run jobs of the kind, and (when
 * they may) its earlier jobs. A user who may only read gets the page with the reason instead of the form.
 */
export async function jobStartPage(kind: JobKind, { user, project }: Guarded): Promise<{ role: Role; project: Project; allowed: boolean; jobs: JobView[] }> {
  const allowed = can(user.role, JOB_WRITE_PERMISSION[kind]);
  return { role: user.role, project, allowed, jobs: allowed ? await listJobs(project, kind) : [] };
}

/**
 * One job's page, as <JobScreen> takes it, after its guard: a user who may not run the kind's
 * jobs, or a job that is not this project's or kind's, is a 404; the job, and its first rows.
 */
export async function jobPage(
  kind: JobKind,
  { user, project }: Guarded,
  params: Promise<{ project: string; job: string }>,
  searchParams: Promise<Record<string, string | string[] | undefined>>,
): Promise<{ project: string; initial: JobView; initialRows: FirstRows | undefined }> {
  if (!can(user.role, JOB_WRITE_PERMISSION[kind])) notFound();
  const { job: jobId } = await params;
  const job = await getJob(project, decodeParam(jobId), kind).catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  return { project: project.externalId, initial: job, initialRows: await firstRows(project, job.id, kind, await searchParams) };
}
