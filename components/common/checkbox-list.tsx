"use client";

import * as React from "react";
import { Checkbox } from "@/components/ui/checkbox";

/** A set of values as a grid of labelled checkboxes (API key scopes, webhook event types); `className` sets the grid. */
export function CheckboxList<V extends string>({ options, value, onChange, className }: { options: readonly V[]; value: readonly V[]; onChange: (next: V[]) => void; className: string }) {
  return (
    <div className={className}>
      {options.map((option) => (
        <label key={option} className="flex items-center gap-2 font-mono text-xs">
          <Checkbox checked={value.includes(option)} onCheckedChange={(c) => onChange(c ? [...value, option] : value.filter((v) => v !== option))} />
          {option}
        </label>
      ))}
    </div>
  );
}
