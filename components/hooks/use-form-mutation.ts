"use client";

import { useMutation, type UseMutationOptions } from "@tanstack/react-query";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { useServerFormError } from "./use-server-form-error";

/**
 * The mutation behind a form: a new attempt clears the last refusal, and a refusal goes under
 * the field it names or, when no field owns it, into `formError` (render it with
 * <FormDialog> or <FormError>). `reset` forgets both, for a dialog being closed.
 */
export function useFormMutation<T extends FieldValues, TData, TVariables = T>(
  form: UseFormReturn<T>,
  fields: readonly Path<T>[],
  options: Omit<UseMutationOptions<TData, unknown, TVariables>, "onMutate" | "onError">,
) {
  const { onError, clear, formError } = useServerFormError(form, fields);
  const mutation = useMutation({ ...options, onMutate: clear, onError });
  const reset = () => {
    mutation.reset();
    clear();
  };
  return { mutation, formError, reset };
}
