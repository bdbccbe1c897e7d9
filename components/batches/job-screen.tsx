"use client";

import { Link } from "@/components/common/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DownloadIcon, RotateCcwIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { batchKeys, batchMutations, jobQuery, resultsHref } from "@/lib/queries/batches";
import type { JobKind, JobView } from "@/lib/schemas/batch";
import { JobProgress } from "@/components/batches/job-progress";
import { JobRows } from "@/components/batches/job-rows";
import type { FirstRows } from "@/lib/schemas/batch";
import { PageHeader } from "@/components/common/page-header";
import { RelativeTime } from "@/components/common/relative-time";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";

/** What a job of each kind is called, and the screen it belongs to. */
const KINDS: Record<JobKind, { title: string; back: string; backLabel: string; noun: string }> = {
  send: { title: "Batch send", back: "batches", backLabel: "Batch from a file", noun: "messages" },
  contacts: { title: "Contact import", back: "contacts", backLabel: "Contacts", noun: "contacts" },
  suppressions: { title: "Bulk suppression", back: "suppressions", backLabel: "Suppressions", noun: "addresses" },
};

/** A job as it runs: progress polled every second (which also resumes it after a restart), rows, retry, download. */
export function JobScreen({ project, initial, initialRows }: { project: string; initial: JobView; initialRows?: FirstRows }) {
  const queryClient = useQueryClient();
  const { data: job = initial, error, refetch } = useQuery({ ...jobQuery(project, initial.id, initial.kind), initialData: initial });
  const retry = useMutation({
    mutationFn: () => batchMutations.retry(project, job.id, job.kind),
    onSuccess: async (r) => {
      toast.success(r.retried ? `Retrying ${r.retried} failed rows` : "No failed rows to retry");
      await queryClient.invalidateQueries({ queryKey: batchKeys.all(project) });
    },
    onError: (e) => toast.error("Retry failed", { description: e.message }),
  });
  const kind = KINDS[job.kind];
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        eyebrow={<Link href={`/p/${encodeURIComponent(project)}/${kind.back}`} className="underline-offset-4 hover:underline">{kind.backLabel}</Link>}
        title={job.fileName ?? "Pasted rows"}
        description={
          <>
            {kind.title} of {job.totalRows.toLocaleString()} rows started by {job.createdByEmail} <RelativeTime value={job.createdAt} />.
            {job.status === "running" ? " You can leave this page: the job continues on the server." : ""}
          </>
        }
        actions={
          <>
            <Button variant="outline" disabled={job.status === "running" || job.counts.failed === 0} pending={retry.isPending} onClick={() => retry.mutate()}>
              <RotateCcwIcon aria-hidden="true" />
              Retry {job.counts.failed} failed rows
            </Button>
            <Button variant="outline" asChild>
              <a href={resultsHref(project, job.id, job.kind)} download>
                <DownloadIcon aria-hidden="true" />
                Results CSV
              </a>
            </Button>
          </>
        }
      />
      {error && <ErrorState compact title="Progress could not be refreshed" error={error} onRetry={() => refetch()} />}
      <JobProgress job={job} noun={kind.noun} />
      <JobRows project={project} kind={job.kind} jobId={job.id} running={job.status === "running"} linkMessages={job.kind === "send"} initial={initialRows} />
    </div>
  );
}
