import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getJob } from "@/lib/server/batches/jobs";
import { firstRows } from "@/lib/server/batches/first-rows";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Contact import" };

export default async function ContactImportJobPage({ params, searchParams }: { params: Promise<{ project: string; job: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { user, project } = await guardPage("contacts:read", params);
  const { job: jobId } = await params;
  if (!can(user.role, "contacts:write")) notFound();
  const job = await getJob(project, decodeParam(jobId), "contacts").catch((e) => {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  });
  const rows = await firstRows(project, job.id, "contacts", await searchParams);
  return <JobScreen project={project.externalId} initial={job} initialRows={rows} />;
}
