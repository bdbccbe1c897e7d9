import type { CheckResult } from "@/lib/schemas/batch";
import { ProblemRows } from "@/components/batches/problem-rows";

/** The check's totals and every row that will not be sent, with its reason. */
export function CheckTable({ result }: { result: CheckResult }) {
  const { summary, problems } = result;
  return (
    <div className="space-y-3" data-testid="check-result">
      <p className="text-sm" role="status">
        {summary.total.toLocaleString()} rows: <strong>{summary.toSend.toLocaleString()} will be sent</strong>, {summary.invalid} invalid, {summary.suppressed} suppressed, {summary.duplicate} repeated.
      </p>
      <ProblemRows problems={problems} label="Rows that will not be sent" columns={["Row", "Email", "Why not", "Reason"]} />
    </div>
  );
}
