import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getJob } from "@/lib/server/batches/jobs";
import { firstRows } from "@/lib/server/batches/first-rows";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Suppressions added in bulk" };

export default async function BulkSuppressionJobPage({ params, searchParams }: { params: Promise<{ project: string; job: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { user, project } = await guardPage("suppressions:read", params);
  const { job: jobId } = await params;
  if (!can(user.role, "suppressions:write")) notFound();
  const job = await getJob(project, decodeParam(jobId), "suppressions").catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  const rows = await firstRows(project, job.id, "suppressions", await searchParams);
  return <JobScreen project={project.externalId} initial={job} initialRows={rows} />;
}
