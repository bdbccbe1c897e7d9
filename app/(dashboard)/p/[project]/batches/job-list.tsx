import { Link } from "@/components/common/link";
import type { JobView } from "@/lib/schemas/batch";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/** Earlier jobs of the project, newest first. */
export function JobList({ project, jobs }: { project: string; jobs: JobView[] }) {
  if (!jobs.length) return null;
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">Earlier batches</h2>
      <ListTable label="Earlier batches" columns={["File", "Status", "Sent", "Not sent", "Started"]}>
        {jobs.map((j) => (
          <TableRow key={j.id}>
            <TableCell>
              <Link className="font-medium underline-offset-4 hover:underline" href={`/p/${encodeURIComponent(project)}/batches/${j.id}`}>
                {j.fileName ?? "Pasted rows"}
              </Link>
            </TableCell>
            <TableCell>
              <StatusBadge status={j.status === "done" ? "sent" : "sending"} label={j.status === "done" ? "Finished" : "Running"} />
            </TableCell>
            <TableCell className="tabular-nums">{j.counts.sent.toLocaleString()}</TableCell>
            <TableCell className="tabular-nums">{(j.counts.failed + j.counts.invalid + j.counts.suppressed + j.counts.duplicate).toLocaleString()}</TableCell>
            <TableCell>
              <RelativeTime value={j.createdAt} />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
    </section>
  );
}
