"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * The table scrolls inside its own box, so a wide table never widens the page at 1024 px.
 * The box is focusable and labelled so keyboard users can scroll it (axe: scrollable-region-focusable).
 */
export function Table({ className, label, containerClassName, ...props }: React.ComponentProps<"table"> & { label: string; containerClassName?: string }) {
  return (
    <div
      data-slot="table-container"
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn("relative w-full overflow-auto rounded-lg border bg-card focus-visible:outline-2 focus-visible:outline-ring", containerClassName)}
    >
      <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("sticky top-0 z-10 bg-muted/80 backdrop-blur [&_tr]:border-b", className)} {...props} />;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * Up/Down (and Home/End) move focus to the same kind of control in the neighbouring row,
 * so a keyboard user can walk a list of messages without tabbing through every cell.
 */
function onRowKeyDown(event: React.KeyboardEvent<HTMLTableSectionElement>) {
  if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
  const target = event.target as HTMLElement;
  if (target.closest("input, textarea, select, [role=combobox], [role=menu]")) return;
  const row = target.closest("tr");
  if (!row) return;
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLTableRowElement>(":scope > tr"));
  const index = rows.indexOf(row);
  const nextIndex =
    event.key === "Home" ? 0 : event.key === "End" ? rows.length - 1 : event.key === "ArrowDown" ? index + 1 : index - 1;
  const next = rows[nextIndex];
  if (!next || next === row) return;
  const column = Array.from(row.querySelectorAll<HTMLElement>(FOCUSABLE)).indexOf(target);
  const candidates = Array.from(next.querySelectorAll<HTMLElement>(FOCUSABLE));
  const focusTarget = candidates[Math.max(0, column)] ?? candidates[0];
  if (!focusTarget) return;
  event.preventDefault();
  focusTarget.focus();
  focusTarget.scrollIntoView({ block: "nearest" });
}

export function TableBody({ className, onKeyDown, ...props }: React.ComponentProps<"tbody">) {
  return (
    <tbody
      data-slot="table-body"
      className={cn("[&_tr:last-child]:border-0", className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) onRowKeyDown(event);
      }}
      {...props}
    />
  );
}

export function TableFooter({ className, ...props }: React.ComponentProps<"tfoot">) {
  return <tfoot data-slot="table-footer" className={cn("border-t bg-muted/50 font-medium", className)} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return (
    <tr
      data-slot="table-row"
      className={cn("border-b transition-colors hover:bg-muted/50 focus-within:bg-muted/50 data-[state=selected]:bg-muted", className)}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return (
    <th
      data-slot="table-head"
      scope="col"
      className={cn("h-10 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("px-3 py-2.5 align-middle", className)} {...props} />;
}

export function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={cn("mt-4 text-sm text-muted-foreground", className)} {...props} />;
}
