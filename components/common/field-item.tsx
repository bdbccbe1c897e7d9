"use client";

import * as React from "react";
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from "react-hook-form";
import { FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";

export type FieldItemProps<T extends FieldValues> = {
  // The form's context and transformed values do not matter to one field.
  control: Control<T, any, any>;
  name: FieldPath<T>;
  label: React.ReactNode;
  description?: React.ReactNode;
  children?: React.ReactNode;
};

/**
 * The frame of one field of a react-hook-form form: label, the control (`render` wraps its
 * input in <FormControl>, which ties label, description and error to it), an optional
 * description, any `children` (a warning about what was entered), then the field's error.
 */
export function FieldItem<T extends FieldValues>({
  control,
  name,
  label,
  description,
  children,
  render,
}: FieldItemProps<T> & { render: (field: ControllerRenderProps<T, FieldPath<T>>) => React.ReactNode }) {
  return (
    <FormField
      control={control as Control<T>}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          {render(field)}
          {description && <FormDescription>{description}</FormDescription>}
          {children}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** Splits a field component's props into its <FieldItem> frame's and the rest, for its input. */
export function splitFieldItem<T extends FieldValues, R>({ control, name, label, description, children, ...rest }: FieldItemProps<T> & R): [FieldItemProps<T>, R] {
  return [{ control, name, label, description, children }, rest as unknown as R];
}
