import type { Metadata } from "next";
import { ROLE_LABELS } from "@/lib/permissions";
import { guardPage } from "@/lib/server/gate/guard";
import { jobStartPage } from "@/lib/server/batches/job-page";
import { PageHeader } from "@/components/common/page-header";
import { BulkSuppressionForm } from "./bulk-suppression-form";

export const metadata: Metadata = { title: "Add suppressions in bulk" };

export default async function BulkSuppressionsPage({ params }: { params: Promise<{ project: string }> }) {
  const { role, project, allowed, jobs } = await jobStartPage("suppressions", await guardPage("suppressions:read", params));
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Add suppressions in bulk"
        description="Paste addresses, one a line, or upload a CSV file with an email column and an optional reason column. The list is checked first; the addresses are then added on the server, and you can leave the page meanwhile."
      />
      {allowed ? (
        <BulkSuppressionForm project={project.externalId} jobs={jobs} />
      ) : (
        <p role="status" className="rounded-md border px-4 py-3 text-sm">Your role ({ROLE_LABELS[role]}) cannot add suppressions.</p>
      )}
    </div>
  );
}
