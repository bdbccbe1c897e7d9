"use client";

import { Link } from "@/components/common/link";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { DirectionLabel } from "./direction-label";
import { messageHref } from "./hrefs";

export { messageHref, recipientHref } from "./hrefs";

/** Indexed messages, newest first. The subject links to the message; the row is not a button. */
export function MessagesTable({ project, rows, label = "Messages" }: { project: string; rows: IndexedMessage[]; label?: string }) {
  return (
    <ListTable
      label={label}
      columns={[
        { label: "Status", className: "w-28" },
        { label: "Direction", className: "w-28" },
        "From",
        "To",
        "Subject",
        { label: "Time", className: "w-32" },
      ]}
    >
      {rows.map((m) => (
        <TableRow key={m.id} data-message-id={m.id}>
          <TableCell>
            <StatusBadge status={m.status} />
          </TableCell>
          <TableCell>
            <DirectionLabel direction={m.direction} />
          </TableCell>
          <TableCell className="max-w-48 truncate" title={m.from}>
            {m.from}
          </TableCell>
          <TableCell className="max-w-48 truncate" title={m.to.join(", ")}>
            {m.to[0] ?? "—"}
            {m.to.length > 1 && <span className="text-muted-foreground"> +{m.to.length - 1}</span>}
          </TableCell>
          <TableCell className="max-w-80 truncate">
            <Link href={messageHref(project, m.id)} className="font-medium underline-offset-4 hover:underline focus-visible:underline">
              {m.subject || <span className="text-muted-foreground italic">(no subject)</span>}
            </Link>
          </TableCell>
          <TableCell>
            <RelativeTime value={m.createdAt} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
