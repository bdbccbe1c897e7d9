import type { DeliverabilityData, ProviderRow } from "@/lib/schemas/deliverability";
import { PROVIDERS } from "@/lib/insight/providers";
import { formatRate, formatThreshold, type Level } from "@/lib/insight/thresholds";
import { LevelBadge } from "@/components/insight/level-badge";
import { CountCell, ListTable, numberColumns } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

function RateCell({ count, rate, level, judged, metric }: { count: number; rate: number | null; level: Level; judged: boolean; metric: string }) {
  return (
    <TableCell className="text-right" data-metric={metric} data-level={judged ? level : undefined}>
      <span className="tabular-nums">{count.toLocaleString()}</span>
      <span className="ml-2 inline-flex items-center gap-1.5 tabular-nums text-muted-foreground">
        {formatRate(rate)}
        {judged && rate !== null && <LevelBadge level={level} label={level === "ok" ? "OK" : undefined} />}
      </span>
    </TableCell>
  );
}

function Row({ label, row, minVolume, id, strong }: { label: string; row: Omit<ProviderRow, "provider">; minVolume: number; id: string; strong?: boolean }) {
  return (
    <TableRow className={strong ? "font-medium" : undefined} data-provider={id}>
      <TableCell>{label}</TableCell>
      <CountCell metric="sent" value={row.sent} />
      <CountCell metric="delivered" value={row.delivered} />
      <RateCell metric="bounced" count={row.bounced} rate={row.bounceRate} level={row.bounceLevel} judged={row.sent >= minVolume} />
      <RateCell metric="complained" count={row.complained} rate={row.complaintRate} level={row.complaintLevel} judged={row.delivered >= minVolume} />
      <TableCell className="text-right" data-metric="opened">
        <span className="tabular-nums">{row.opened.toLocaleString()}</span>
        <span className="ml-2 tabular-nums text-muted-foreground">{formatRate(row.openRate)}</span>
      </TableCell>
    </TableRow>
  );
}

/** One row per provider: counts, and each rate with its level against the project's thresholds. */
export function ProviderTable({ data }: { data: DeliverabilityData }) {
  const t = data.thresholds;
  return (
    <ListTable
      label="Mail by mailbox provider"
      columns={["Provider", ...numberColumns("Sent", "Delivered", "Bounced", "Complained", "Opened")]}
      caption={
        <caption className="px-3 py-2 text-left text-xs text-muted-foreground">
          Bounced ÷ sent (warning {formatThreshold(t.bounceWarning)}, limit {formatThreshold(t.bounceLimit)}); complained ÷ delivered (warning {formatThreshold(t.complaintWarning)}, limit{" "}
          {formatThreshold(t.complaintLimit)}); opened ÷ delivered.
        </caption>
      }
    >
      {data.providers.map((row) => (
        <Row key={row.provider} id={row.provider} label={PROVIDERS[row.provider].label} row={row} minVolume={data.minVolume} />
      ))}
      <Row id="all" label="All providers" row={data.total} minVolume={data.minVolume} strong />
    </ListTable>
  );
}
