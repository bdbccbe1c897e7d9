import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { composeOptions } from "@/lib/server/compose/data";
import { listJobs } from "@/lib/server/batches/jobs";
import { PageHeader } from "@/components/common/page-header";
import { BatchWizard } from "./batch-wizard";
import { JobList } from "./job-list";

export const metadata: Metadata = { title: "Batches" };

/** Batch sends from a file: the wizard for a new one and the project's earlier jobs. */
export default async function BatchesPage({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await guardPage("batches:send", params);
  const [options, jobs] = await Promise.all([composeOptions(project), listJobs(project, "send")]);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Batch from a file"
        description="Send one message per row of a CSV file. Every row is checked before anything is sent; the job runs on the server and can be left and resumed."
      />
      <BatchWizard project={project.externalId} options={options} />
      <JobList project={project.externalId} jobs={jobs} />
    </div>
  );
}
