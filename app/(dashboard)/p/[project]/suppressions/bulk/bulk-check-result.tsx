import type { CheckResult } from "@/lib/schemas/batch";
import { ProblemRows } from "@/components/batches/problem-rows";

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
      <ProblemRows problems={problems} label="Lines that will not be added" columns={["Line", "Address", "Outcome", "Why"]} outcomes={OUTCOME} />
      {problems.length < summary.total - summary.toSend && (
        <p className="text-xs text-muted-foreground">The first {problems.length.toLocaleString()} such lines are listed.</p>
      )}
    </section>
  );
}
