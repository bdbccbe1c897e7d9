"use client";

import * as React from "react";
import { ChevronDownIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { SELECT_TRIGGER_CLASS } from "@/components/ui/select-trigger-class";
import type { FilterSelectProps } from "./filter-select-props";

const load = () => import("./filter-select-menu");
const Menu = React.lazy(() => load().then((m) => ({ default: m.FilterSelectMenu })));

/**
 * One filter of a list screen's filter bar: a choice, or "any". Until it is first opened it is
 * drawn as the radix select's trigger draws itself (same role, name, look and chosen label);
 * the select's code (radix select, its positioning and focus handling) loads on first use.
 */
export function FilterSelect({ className = "w-36", ...props }: FilterSelectProps) {
  const chosen = props.options.find((o) => o.value === props.value)?.label ?? props.anyLabel;
  const trigger = (
    <button type="button" role="combobox" aria-label={props.label} aria-autocomplete="none" data-slot="select-trigger" data-size="default" data-state="closed" className={cn(SELECT_TRIGGER_CLASS, className)}>
      <span data-slot="select-value" style={{ pointerEvents: "none" }}>
        {chosen}
      </span>
      <ChevronDownIcon className="opacity-60" aria-hidden="true" />
    </button>
  );
  return (
    <LazyMenu load={load} trigger={trigger} opensOn="pointerdown">
      {(menu) => <Menu {...props} className={className} open={menu.open} onOpenChange={menu.onOpenChange} />}
    </LazyMenu>
  );
}
