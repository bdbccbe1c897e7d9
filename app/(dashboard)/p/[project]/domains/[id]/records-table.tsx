"use client";

import { CheckIcon, MinusIcon } from "lucide-react";
import type { DnsRecord } from "@/lib/schemas/domains";
import { fullHost, relativeHost } from "@/lib/domains/records";
import { CopyButton } from "@/components/common/copy-button";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

const PURPOSE_LABELS: Record<string, string> = {
  dkim: "DKIM",
  spf: "SPF",
  dmarc: "DMARC",
  return_path: "Return path",
  "return-path": "Return path",
  receiving: "Receiving",
  mx: "Receiving",
};

/**
 * The DNS records to publish. Hosts appear twice: relative ("as most DNS panels want",
 * since they append the domain themselves) and full; every host and value has a copy button.
 */
export function RecordsTable({ domain, records, label }: { domain: string; records: DnsRecord[]; label: string }) {
  return (
    <ListTable
      label={label}
      columns={[
        { label: "Type", className: "w-16" },
        "Host",
        "Value",
        { label: "Priority", className: "w-16" },
        { label: "Purpose", className: "w-24" },
        { label: "Verified", className: "w-20" },
      ]}
    >
      {records.map((r, i) => {
        const rel = relativeHost(r.name, domain);
        const full = fullHost(r.name, domain);
        return (
          <TableRow key={`${r.type}-${r.name}-${i}`} data-record-purpose={r.purpose}>
            <TableCell className="font-mono text-xs font-semibold">{r.type.toUpperCase()}</TableCell>
            <TableCell className="max-w-52">
              <div className="flex min-w-0 items-center gap-1">
                <span className="truncate font-mono text-xs" title={rel} data-host-relative="">
                  {rel}
                </span>
                <CopyButton value={rel} label={`host ${rel}`} className="size-7" />
              </div>
              <div className="flex min-w-0 items-center gap-1 text-muted-foreground">
                <span className="truncate font-mono text-[11px]" title={full}>
                  {full}
                </span>
                <CopyButton value={full} label={`full name ${full}`} className="size-7" />
              </div>
            </TableCell>
            <TableCell className="max-w-64">
              <div className="flex min-w-0 items-center gap-1">
                <span className="truncate font-mono text-xs" title={r.value} data-record-value="">
                  {r.value}
                </span>
                <CopyButton value={r.value} label={`${PURPOSE_LABELS[r.purpose] ?? r.purpose} value`} className="size-7" />
              </div>
            </TableCell>
            <TableCell className="font-mono text-xs">{r.priority ?? "—"}</TableCell>
            <TableCell className="text-xs">{PURPOSE_LABELS[r.purpose] ?? r.purpose}</TableCell>
            <TableCell>
              {r.verified ? (
                <span className="inline-flex items-center gap-1 text-xs text-emerald-700 dark:text-emerald-300">
                  <CheckIcon className="size-3.5" aria-hidden="true" /> Yes
                </span>
              ) : (
                <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                  <MinusIcon className="size-3.5" aria-hidden="true" /> Not yet
                </span>
              )}
            </TableCell>
          </TableRow>
        );
      })}
    </ListTable>
  );
}
