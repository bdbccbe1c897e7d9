import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { jobPage } from "@/lib/server/batches/job-page";
import { JobScreen } from "@/components/batches/job-screen";

export const metadata: Metadata = { title: "Suppressions added in bulk" };

export default async function BulkSuppressionJobPage({ params, searchParams }: { params: Promise<{ project: string; job: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <JobScreen {...await jobPage("suppressions", await guardPage("suppressions:read", params), params, searchParams)} />;
}
