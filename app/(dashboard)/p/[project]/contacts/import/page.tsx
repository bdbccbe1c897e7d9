import type { Metadata } from "next";
import { ROLE_LABELS } from "@/lib/permissions";
import { guardPage } from "@/lib/server/gate/guard";
import { jobStartPage } from "@/lib/server/batches/job-page";
import { PageHeader } from "@/components/common/page-header";
import { ImportForm } from "./import-form";

export const metadata: Metadata = { title: "Import contacts" };

export default async function ImportContactsPage({ params }: { params: Promise<{ project: string }> }) {
  const { role, project, allowed, jobs } = await jobStartPage("contacts", await guardPage("contacts:read", params));
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader title="Import contacts" description="Create one contact per row of a CSV file. The import runs on the server, shows each row's outcome and can be left and resumed." />
      {allowed ? (
        <ImportForm project={project.externalId} jobs={jobs} />
      ) : (
        <p role="status" className="rounded-md border px-4 py-3 text-sm">Your role ({ROLE_LABELS[role]}) cannot import contacts.</p>
      )}
    </div>
  );
}
