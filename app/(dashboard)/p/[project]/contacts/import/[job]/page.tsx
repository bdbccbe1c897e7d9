import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/components/shell/nav";
import { getJob } from "@/lib/server/batches/jobs";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Contact import" };

export default async function ContactImportJobPage({ params }: { params: Promise<{ project: string; job: string }> }) {
  const { project: externalId, job: jobId } = await params;
  const { user, project } = await guardPage("contacts:read", decodeParam(externalId));
  if (!can(user.role, "contacts:write")) notFound();
  const job = await getJob(project!, decodeParam(jobId), "contacts").catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  return <JobScreen project={project!.externalId} initial={job} />;
}
