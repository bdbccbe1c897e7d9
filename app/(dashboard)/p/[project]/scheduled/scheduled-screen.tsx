"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useRouter } from "next/navigation";
import { CalendarClockIcon } from "lucide-react";
import type { ScheduledView } from "@/lib/schemas/overview";
import { scheduleInWords } from "@/components/compose/schedule-words";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { StatusBadge } from "@/components/common/status-badge";
import { Button } from "@/components/ui/button";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

function countdown(ms: number): string {
  if (ms <= 0) return "going out now";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return d ? `in ${d} d ${h} h` : h ? `in ${h} h ${m} min` : `in ${m} min ${String(sec).padStart(2, "0")} s`;
}

/** What is waiting to go out, in the viewer's zone and UTC, with a live countdown; refreshed every 15 s. */
export function ScheduledScreen({ project, items, canCompose }: { project: string; items: ScheduledView[]; canCompose: boolean }) {
  const router = useRouter();
  const [now, setNow] = React.useState<number | null>(null);
  React.useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const refresh = setInterval(() => router.refresh(), 15_000);
    return () => {
      clearInterval(tick);
      clearInterval(refresh);
    };
  }, [router]);
  const zone = typeof Intl !== "undefined" ? Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" : "UTC";
  const compose = `/p/${encodeURIComponent(project)}/compose`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Scheduled"
        description={`Messages sent from this dashboard with a send time still ahead. Times are in your zone (${zone}) and UTC.`}
        actions={canCompose ? <Button asChild><Link href={compose}>Compose</Link></Button> : null}
      />
      {items.length === 0 ? (
        <EmptyState icon={CalendarClockIcon} title="Nothing scheduled" description="Messages you schedule from Compose wait here until their time." action={canCompose ? <Button asChild variant="outline"><Link href={compose}>Schedule a message</Link></Button> : undefined} />
      ) : (
        <ListTable label="Scheduled messages" columns={["Goes out", "Countdown", "To", "Subject", "Status"]}>
          {items.map((m) => (
            <TableRow key={m.id} data-testid="scheduled-row">
              <TableCell className="text-sm">
                <Link className="underline-offset-4 hover:underline" href={`/p/${encodeURIComponent(project)}/messages/${encodeURIComponent(m.id)}`}>
                  {now === null ? m.scheduledAt : scheduleInWords(m.scheduledAt, zone, now).split(", in ")[0].split(", ")[0]}
                </Link>
              </TableCell>
              <TableCell className="tabular-nums">{now === null ? "—" : countdown(Date.parse(m.scheduledAt) - now)}</TableCell>
              <TableCell className="max-w-xs truncate">{m.to.join(", ")}</TableCell>
              <TableCell className="max-w-xs truncate">{m.subject ?? "—"}</TableCell>
              <TableCell>
                <StatusBadge status={m.status} label={Date.parse(m.scheduledAt) > (now ?? 0) ? "Scheduled" : undefined} />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
    </div>
  );
}
