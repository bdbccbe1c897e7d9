"use client";

import * as React from "react";
import type { FieldValues } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormControl } from "@/components/ui/form";
import { FieldItem, splitFieldItem, type FieldItemProps } from "./field-item";

type Controlled = "name" | "value" | "onChange" | "onBlur" | "children";

/**
 * One text input of a react-hook-form form (<FieldItem> frame). With `optional`, an emptied
 * box means the value is absent (undefined), not the empty string.
 */
export function TextField<T extends FieldValues>({ optional = false, ...props }: FieldItemProps<T> & { optional?: boolean } & Omit<React.ComponentProps<typeof Input>, Controlled>) {
  const [item, input] = splitFieldItem<T, Omit<React.ComponentProps<typeof Input>, Controlled>>(props);
  return (
    <FieldItem
      {...item}
      render={(field) => (
        <FormControl>
          <Input
            autoComplete="off"
            {...input}
            {...field}
            value={field.value ?? ""}
            onChange={optional ? (e) => field.onChange(e.target.value === "" ? undefined : e.target.value) : field.onChange}
          />
        </FormControl>
      )}
    />
  );
}

/** One multi-line text box of a react-hook-form form (<FieldItem> frame). */
export function TextareaField<T extends FieldValues>(props: FieldItemProps<T> & Omit<React.ComponentProps<typeof Textarea>, Controlled>) {
  const [item, textarea] = splitFieldItem<T, Omit<React.ComponentProps<typeof Textarea>, Controlled>>(props);
  return (
    <FieldItem
      {...item}
      render={(field) => (
        <FormControl>
          <Textarea {...textarea} {...field} value={field.value ?? ""} />
        </FormControl>
      )}
    />
  );
}
