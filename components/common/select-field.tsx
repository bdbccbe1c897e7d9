"use client";

import * as React from "react";
import type { FieldValues } from "react-hook-form";
import { FormControl } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { FieldItem, type FieldItemProps } from "./field-item";

/** One choice among fixed `options` in a react-hook-form form (<FieldItem> frame); `optionLabel` names an option (default: the value itself). */
export function SelectField<T extends FieldValues, V extends string>({
  options,
  optionLabel = (v) => v,
  ...item
}: FieldItemProps<T> & { options: readonly V[]; optionLabel?: (value: V) => React.ReactNode }) {
  return (
    <FieldItem
      {...item}
      render={(field) => (
        <Select value={field.value} onValueChange={field.onChange}>
          <FormControl>
            <SelectTrigger className="w-full">
              <SelectValue />
            </SelectTrigger>
          </FormControl>
          <SelectContent>
            {options.map((o) => (
              <SelectItem key={o} value={o}>
                {optionLabel(o)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    />
  );
}
