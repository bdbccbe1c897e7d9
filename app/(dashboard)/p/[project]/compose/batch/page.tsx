import type { Metadata } from "next";
import Link from "next/link";
import { guardPage } from "@/lib/server/guard";
import { can, ROLE_LABELS } from "@/lib/permissions";
import { decodeParam } from "@/components/shell/nav";
import { composeOptions } from "@/lib/server/compose/data";
import { listJobs } from "@/lib/server/batches/jobs";
import { PageHeader } from "@/components/common/page-header";
import { BatchWizard } from "./batch-wizard";
import { JobList } from "./job-list";

export const metadata: Metadata = { title: "Batch from a file" };

/** Under compose (the screen that sends); the batch itself needs batches:send, which the routes enforce too. */
export default async function BatchPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: externalId } = await params;
  const { user, project } = await guardPage("messages:send", decodeParam(externalId));
  const allowed = can(user.role, "batches:send");
  const [options, jobs] = allowed ? await Promise.all([composeOptions(project!), listJobs(project!, "send")]) : [null, []];
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Batch from a file"
        description="Send one message per row of a CSV file. Every row is checked before anything is sent; the job runs on the server and can be left and resumed."
      />
      {allowed && options ? (
        <>
          <BatchWizard project={project!.externalId} options={options} />
          <JobList project={project!.externalId} jobs={jobs} />
        </>
      ) : (
        <p role="status" className="rounded-md border px-4 py-3 text-sm">
          Your role ({ROLE_LABELS[user.role]}) cannot send batches: ask a marketer or an admin. You can still{" "}
          <Link className="underline underline-offset-4" href={`/p/${encodeURIComponent(project!.externalId)}/compose`}>
            send a single message
          </Link>
          .
        </p>
      )}
    </div>
  );
}
