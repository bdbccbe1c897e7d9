"use client";

import type { AuditEntry } from "@/lib/schemas/audit";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

/** An audit entry's details, loaded when its button is first used (./audit-table.tsx). */
export function AuditDetailPopover({ entry, open, onOpenChange, trigger }: { entry: AuditEntry } & LazyDialogProps) {
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent align="end" className="w-96">
        <p className="mb-2 text-xs font-medium text-muted-foreground">Details</p>
        <pre className="max-h-72 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{JSON.stringify(entry.detail, null, 2)}</pre>
      </PopoverContent>
    </Popover>
  );
}
