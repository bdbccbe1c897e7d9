import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getJob } from "@/lib/server/batches/jobs";
import { firstRows } from "@/lib/server/batches/first-rows";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Batch job" };

export default async function BatchJobPage({ params, searchParams }: { params: Promise<{ project: string; job: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("batches:send", params);
  const { job: jobId } = await params;
  const job = await getJob(project, decodeParam(jobId)).catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  const rows = await firstRows(project, job.id, "send", await searchParams);
  return <JobScreen project={project.externalId} initial={job} initialRows={rows} />;
}
