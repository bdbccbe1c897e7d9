"use client";

import * as React from "react";
import type { FieldValues } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormControl } from "@/components/ui/form";
import { FieldItem, type FieldItemProps } from "./field-item";

type Controlled = "name" | "value" | "onChange" | "onBlur" | "children";

/**
 * One text input of a react-hook-form form (<FieldItem> frame). With `optional`, an emptied
 * box means the value is absent (undefined), not the empty string.
 */
export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  optional = false,
  children,
  ...input
}: FieldItemProps<T> & { optional?: boolean } & Omit<React.ComponentProps<typeof Input>, Controlled>) {
  return (
    <FieldItem
      control={control}
      name={name}
      label={label}
      description={description}
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
    >
      {children}
    </FieldItem>
  );
}

/** One multi-line text box of a react-hook-form form (<FieldItem> frame). */
export function TextareaField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  children,
  ...textarea
}: FieldItemProps<T> & Omit<React.ComponentProps<typeof Textarea>, Controlled>) {
  return (
    <FieldItem
      control={control}
      name={name}
      label={label}
      description={description}
      render={(field) => (
        <FormControl>
          <Textarea {...textarea} {...field} value={field.value ?? ""} />
        </FormControl>
      )}
    >
      {children}
    </FieldItem>
  );
}
