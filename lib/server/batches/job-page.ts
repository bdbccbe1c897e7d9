import "server-only";
import { notFound } from "next/navigation";
import { can, type Permission, type Role } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import type { FirstRows, JobKind, JobView } from "@/lib/schemas/batch";
import { guardPage } from "@/lib/server/gate/guard";
import type { Project } from "@/lib/server/gate/access";
import { getJob, listJobs } from "./jobs";
import { firstRows } from "./first-rows";

/** Who opens a job kind's pages (`read`) and who may run its jobs (`write`): one table for the three kinds' pages. */
const JOB_PAGE_PERMISSIONS: Record<JobKind, { read: Permission; write: Permission }> = {
  send: { read: "batches:send", write: "batches:send" },
  contacts: { read: "contacts:read", write: "contacts:write" },
  suppressions: { read: "suppressions:read", write: "suppressions:write" },
};

/**
 * A job kind's start page: the guard, whether the user may run jobs of the kind, and (when they
 * may) its earlier jobs. A user who may only read gets the page with the reason instead of the form.
 */
export async function jobStartPage(kind: JobKind, params: Promise<{ project: string }>): Promise<{ role: Role; project: Project; allowed: boolean; jobs: JobView[] }> {
  const { user, project } = await guardPage(JOB_PAGE_PERMISSIONS[kind].read, params);
  const allowed = can(user.role, JOB_PAGE_PERMISSIONS[kind].write);
  return { role: user.role, project, allowed, jobs: allowed ? await listJobs(project, kind) : [] };
}

/**
 * One job's page, as <JobScreen> takes it: the guard (a user who may not run the kind's jobs,
 * or a job that is not this project's or kind's, is a 404), the job, and its first rows.
 */
export async function jobPage(
  kind: JobKind,
  params: Promise<{ project: string; job: string }>,
  searchParams: Promise<Record<string, string | string[] | undefined>>,
): Promise<{ project: string; initial: JobView; initialRows: FirstRows | undefined }> {
  const { user, project } = await guardPage(JOB_PAGE_PERMISSIONS[kind].read, params);
  if (!can(user.role, JOB_PAGE_PERMISSIONS[kind].write)) notFound();
  const { job: jobId } = await params;
  const job = await getJob(project, decodeParam(jobId), kind).catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  return { project: project.externalId, initial: job, initialRows: await firstRows(project, job.id, kind, await searchParams) };
}
