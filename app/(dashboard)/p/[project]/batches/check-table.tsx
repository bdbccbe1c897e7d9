import type { CheckResult } from "@/lib/schemas/batch";
import { StatusBadge } from "@/components/common/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** The check's totals and every row that will not be sent, with its reason. */
export function CheckTable({ result }: { result: CheckResult }) {
  const { summary, problems } = result;
  return (
    <div className="space-y-3" data-testid="check-result">
      <p className="text-sm" role="status">
        {summary.total.toLocaleString()} rows: <strong>{summary.toSend.toLocaleString()} will be sent</strong>, {summary.invalid} invalid, {summary.suppressed} suppressed, {summary.duplicate} repeated.
      </p>
      {problems.length > 0 && (
        <Table label="Rows that will not be sent" containerClassName="max-h-80">
          <TableHeader>
            <TableRow>
              <TableHead className="w-16">Row</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Why not</TableHead>
              <TableHead>Reason</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
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
          </TableBody>
        </Table>
      )}
    </div>
  );
}
