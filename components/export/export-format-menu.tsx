"use client";

import * as React from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

/** The Export menu itself (radix), loaded on first use (export-menu.tsx). */
export function ExportFormatMenu({
  open,
  onOpenChange,
  trigger,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: React.ReactElement;
  onPick: (format: "csv" | "ndjson") => void;
}) {
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => onPick("csv")}>CSV (spreadsheet)</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onPick("ndjson")}>NDJSON (one JSON object a line)</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
