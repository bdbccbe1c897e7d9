"use client";

import * as React from "react";
import { useForm, type DefaultValues, type FieldValues, type UseFormProps } from "react-hook-form";

/**
 * The form of a dialog that edits what is there now (a rename, a user's projects, a new saved
 * view): filled with `defaultValues`, and filled with them again each time the dialog opens,
 * so an edit that was cancelled earlier is not shown again.
 */
export function useReopenedForm<T extends FieldValues>(open: boolean, options: UseFormProps<T> & { defaultValues: DefaultValues<T> }) {
  const form = useForm<T>(options);
  const values = options.defaultValues;
  // The values by their content (a caller's object literal is new on every render), not by identity.
  const key = JSON.stringify(values);
  React.useEffect(() => {
    if (open) form.reset(values);
  }, [open, key, form]);
  return form;
}
