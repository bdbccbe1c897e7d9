import type { CheckResult } from "@/lib/schemas/batch";
import { StatusBadge } from "@/components/common/status-badge";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

const OUTCOME: Record<string, string> = { invalid: "not valid", duplicate: "repeated", suppressed: "already suppressed" };

/** The list's check: the totals, and each line that will not be added, by its line number. */
export function BulkCheckResult({ result }: { result: CheckResult }) {
  const { summary, problems } = result;
  return (
    <section className="space-y-3" aria-label="Check of the list" data-testid="check-result">
      <p className="text-sm" role="status">
        {summary.total.toLocaleString()} addresses read: <strong>{summary.toSend.toLocaleString()} to add</strong>, {summary.suppressed.toLocaleString()} already suppressed,{" "}
        {summary.duplicate.toLocaleString()} repeated (folded onto their first line), {summary.invalid.toLocaleString()} with errors.
      </p>
      {problems.length > 0 && (
        <ListTable label="Lines that will not be added" containerClassName="max-h-80" columns={[{ label: "Line", className: "w-16" }, "Address", "Outcome", "Why"]}>
          {problems.map((r) => (
            <TableRow key={r.row} data-testid="problem-row">
              <TableCell className="tabular-nums">{r.row}</TableCell>
              <TableCell className="max-w-xs truncate">{r.email || "—"}</TableCell>
              <TableCell>
                <StatusBadge status={r.status} label={OUTCOME[r.status]} />
              </TableCell>
              <TableCell className="text-xs">{r.error?.message}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      {problems.length < summary.total - summary.toSend && (
        <p className="text-xs text-muted-foreground">The first {problems.length.toLocaleString()} such lines are listed.</p>
      )}
    </section>
  );
}
