"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * An on/off switch as radix's (a button with the switch role, `checked`/`onCheckedChange`,
 * `data-state` for its looks), written here because every use is controlled and inside a
 * form library or none, so radix's hidden form input and its primitives are not needed.
 */
export function Switch({
  className,
  checked,
  onCheckedChange,
  onClick,
  disabled,
  ...props
}: Omit<React.ComponentProps<"button">, "onChange" | "value"> & { checked: boolean; onCheckedChange?: (checked: boolean) => void }) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      data-disabled={disabled ? "" : undefined}
      disabled={disabled}
      value="on"
      data-slot="switch"
      className={cn(
        "peer inline-flex h-5 w-9 shrink-0 items-center rounded-full border border-transparent shadow-xs transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60",
        "data-[state=checked]:bg-primary data-[state=unchecked]:bg-input",
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange?.(!checked);
      }}
      {...props}
    >
      <span
        data-slot="switch-thumb"
        data-state={state}
        className="pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
