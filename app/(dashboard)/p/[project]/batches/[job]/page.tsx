import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/guard";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getJob } from "@/lib/server/batches/jobs";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Batch job" };

export default async function BatchJobPage({ params }: { params: Promise<{ project: string; job: string }> }) {
  const { project } = await guardPage("batches:send", params);
  const { job: jobId } = await params;
  const job = await getJob(project, decodeParam(jobId)).catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  return <JobScreen project={project.externalId} initial={job} />;
}
