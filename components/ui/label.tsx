"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * A form label, as radix's Label: a double-click on the label's own text does not select it
 * (a click on a control inside it behaves as usual). Written here, as it is all radix's is,
 * so that forms and filters do not load radix's primitive and slot for it.
 */
export function Label({ className, onMouseDown, ...props }: React.ComponentProps<"label">) {
  return (
    <label
      data-slot="label"
      className={cn(
        "flex items-center gap-2 text-sm leading-none font-medium select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-60",
        className,
      )}
      onMouseDown={(event) => {
        const target = event.target as HTMLElement;
        if (target.closest("button, input, select, textarea")) return;
        onMouseDown?.(event);
        if (!event.defaultPrevented && event.detail > 1) event.preventDefault();
      }}
      {...props}
    />
  );
}
