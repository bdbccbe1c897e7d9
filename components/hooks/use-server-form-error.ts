"use client";

import { useCallback, useState } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { setServerFieldError } from "@/components/common/form-errors";
import { describeError } from "@/components/common/error-advice";

/**
 * A server refusal goes under the field it names; anything else (service down, a conflict
 * no field owns) becomes one message for the whole form. Pass `onError` to the mutation and
 * `clear` to its onMutate; render `formError` with <FormError>.
 */
export function useServerFormError<T extends FieldValues>(form: UseFormReturn<T>, fields: readonly Path<T>[]) {
  const [error, setError] = useState<unknown>(null);
  const onError = useCallback(
    (e: unknown) => {
      if (!setServerFieldError(e, fields, form.setError)) setError(e);
    },
    [form.setError, fields],
  );
  const clear = useCallback(() => setError(null), []);
  const described = error ? describeError(error) : null;
  return { onError, clear, formError: described ? { message: described.message, correlationId: described.correlationId } : null };
}
