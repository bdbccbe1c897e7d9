"use client";

import * as React from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";

/**
 * One text input of a react-hook-form form: label, the input, an optional description, any
 * `children` (a warning about what was typed), then the field's error. With `optional`, an
 * emptied box means the value is absent (undefined), not the empty string.
 */
export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  optional = false,
  children,
  ...input
}: {
  // The form's context and transformed values do not matter to one field.
  control: Control<T, any, any>;
  name: FieldPath<T>;
  label: React.ReactNode;
  description?: React.ReactNode;
  optional?: boolean;
  children?: React.ReactNode;
} & Omit<React.ComponentProps<typeof Input>, "name" | "value" | "onChange" | "onBlur" | "children">) {
  return (
    <FormField
      control={control as Control<T>}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input
              autoComplete="off"
              {...input}
              {...field}
              value={field.value ?? ""}
              onChange={optional ? (e) => field.onChange(e.target.value === "" ? undefined : e.target.value) : field.onChange}
            />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          {children}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
