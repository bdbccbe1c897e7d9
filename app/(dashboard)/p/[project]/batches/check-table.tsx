import type { CheckResult } from "@/lib/schemas/batch";
import { StatusBadge } from "@/components/common/status-badge";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/** The check's totals and every row that will not be sent, with its reason. */
export function CheckTable({ result }: { result: CheckResult }) {
  const { summary, problems } = result;
  return (
    <div className="space-y-3" data-testid="check-result">
      <p className="text-sm" role="status">
        {summary.total.toLocaleString()} rows: <strong>{summary.toSend.toLocaleString()} will be sent</strong>, {summary.invalid} invalid, {summary.suppressed} suppressed, {summary.duplicate} repeated.
      </p>
      {problems.length > 0 && (
        <ListTable label="Rows that will not be sent" containerClassName="max-h-80" columns={[{ label: "Row", className: "w-16" }, "Email", "Why not", "Reason"]}>
          {problems.map((r) => (
            <TableRow key={r.row} data-testid="problem-row">
              <TableCell className="tabular-nums">{r.row}</TableCell>
              <TableCell className="max-w-xs truncate">{r.email || "—"}</TableCell>
              <TableCell>
                <StatusBadge status={r.status} />
              </TableCell>
              <TableCell className="text-xs">{r.error?.message}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
    </div>
  );
}
