import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/guard";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/components/shell/nav";
import { getJob } from "@/lib/server/batches/jobs";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Batch job" };

export default async function BatchJobPage({ params }: { params: Promise<{ project: string; job: string }> }) {
  const { project: externalId, job: jobId } = await params;
  const { project } = await guardPage("batches:send", decodeParam(externalId));
  const job = await getJob(project!, decodeParam(jobId)).catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  return <JobScreen project={project!.externalId} initial={job} />;
}
