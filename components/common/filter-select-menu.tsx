"use client";

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { FilterSelectProps } from "./filter-select-props";

/** The "any" choice of a filter; Radix Select does not allow an empty value. */
const ANY = "__any";

/** The radix select of a filter, loaded when it is first opened (./filter-select.tsx). */
export function FilterSelectMenu({
  label,
  value,
  onChange,
  options,
  anyLabel,
  className,
  open,
  onOpenChange,
}: FilterSelectProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Select value={value ?? ANY} onValueChange={(v) => onChange(v === ANY ? null : v)} open={open} onOpenChange={onOpenChange}>
      <SelectTrigger className={className} aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ANY}>{anyLabel}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
