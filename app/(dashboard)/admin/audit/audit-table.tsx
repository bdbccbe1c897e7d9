"use client";

import * as React from "react";
import { InfoIcon } from "lucide-react";
import type { AuditEntry } from "@/lib/schemas/audit";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";

/** The details popover (radix popover and its positioning) loads when a row's button is first used (./audit-detail-popover.tsx). */
const loadDetail = () => import("./audit-detail-popover");
const DetailPopover = React.lazy(() => loadDetail().then((m) => ({ default: m.AuditDetailPopover })));

function Detail({ entry }: { entry: AuditEntry }) {
  if (Object.keys(entry.detail).length === 0) return null;
  const trigger = (
    <Button variant="ghost" size="icon-sm" aria-label={`Details of ${entry.action} at ${entry.at}`} aria-haspopup="dialog">
      <InfoIcon aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={loadDetail} trigger={trigger} opensOn="click">
      {(popover) => <DetailPopover entry={entry} {...popover} />}
    </LazyMenu>
  );
}

export function AuditTable({ rows }: { rows: AuditEntry[] }) {
  return (
    <ListTable label="Audit log entries" columns={["When", "Outcome", "Who", "Action", "Project", "Target", { label: "Details", className: "w-10", hidden: true }]}>
      {rows.map((r) => (
        <TableRow key={r.id}>
          <TableCell>
            <RelativeTime value={r.at} />
          </TableCell>
          <TableCell>
            <StatusBadge status={r.outcome} />
          </TableCell>
          <TableCell className="max-w-44 truncate" title={r.actorEmail}>
            {r.actorEmail}
          </TableCell>
          <TableCell>
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{r.action}</code>
          </TableCell>
          <TableCell className="max-w-28 truncate font-mono text-xs" title={r.project ?? undefined}>{r.project ?? <span className="text-muted-foreground">—</span>}</TableCell>
          <TableCell className="max-w-44 truncate" title={r.target ?? undefined}>
            {r.target ?? <span className="text-muted-foreground">—</span>}
          </TableCell>
          <TableCell className="text-right">
            <Detail entry={r} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
