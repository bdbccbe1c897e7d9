"use client";

import type { JobView } from "@/lib/schemas/batch";

/** Progress of a job: the bar counts rows settled among those that were to be sent. */
export function JobProgress({ job, noun = "messages" }: { job: JobView; noun?: string }) {
  const c = job.counts;
  const attempted = c.sent + c.failed + c.pending + (job.kind === "contacts" ? c.duplicate : 0);
  const settled = attempted - c.pending;
  const pct = attempted ? Math.round((settled / attempted) * 100) : 100;
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium">{job.status === "done" ? "Finished" : job.kind === "send" ? "Sending…" : "Adding…"}</span>
        <span className="tabular-nums text-muted-foreground">
          {settled.toLocaleString()} of {attempted.toLocaleString()} {noun} ({pct}%)
        </span>
      </div>
      <div role="progressbar" aria-label="Job progress" aria-valuemin={0} aria-valuemax={attempted} aria-valuenow={settled} className="h-2 w-full overflow-hidden rounded-full bg-muted">
        <div className="h-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      <dl className="grid grid-cols-3 gap-2 text-sm md:grid-cols-6" data-testid="job-counts">
        {(
          [
            ["sent", { send: "Sent", contacts: "Created", suppressions: "Added" }[job.kind]],
            ["pending", "Waiting"],
            ["failed", "Failed"],
            ["invalid", "Invalid"],
            ["suppressed", job.kind === "suppressions" ? "Already suppressed" : "Suppressed"],
            ["duplicate", job.kind === "contacts" ? "Already existed / repeated" : "Repeated"],
          ] as const
        ).map(([key, label]) => (
          <div key={key} className="rounded-md border px-3 py-2">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`count-${key}`}>
              {c[key].toLocaleString()}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
