import type { CheckResult } from "@/lib/schemas/batch";
import { StatusBadge } from "@/components/common/status-badge";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/**
 * The rows a check of a file or list found that will not go through (a batch send's, a bulk
 * suppression's): the row's number, its address, its outcome and why, in the words of the
 * screen's own columns and outcome labels. Nothing when every row passes.
 */
export function ProblemRows({
  problems,
  label,
  columns,
  outcomes,
}: {
  problems: CheckResult["problems"];
  label: string;
  /** The four column headings: number, address, outcome, why. */
  columns: readonly [string, string, string, string];
  /** The outcome's words where they are not the status itself. */
  outcomes?: Record<string, string>;
}) {
  if (problems.length === 0) return null;
  const [number, ...rest] = columns;
  return (
    <ListTable label={label} containerClassName="max-h-80" columns={[{ label: number, className: "w-16" }, ...rest]}>
      {problems.map((r) => (
        <TableRow key={r.row} data-testid="problem-row">
          <TableCell className="tabular-nums">{r.row}</TableCell>
          <TableCell className="max-w-xs truncate">{r.email || "—"}</TableCell>
          <TableCell>
            <StatusBadge status={r.status} label={outcomes?.[r.status]} />
          </TableCell>
          <TableCell className="text-xs">{r.error?.message}</TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
