"use client";

import * as React from "react";
import { checksOn, errorsFromIssues, replaceErrorsOf, type FieldErrors, type Issue } from "./form-errors";

/** The whole form checked against its schema: the parsed values, or what is wrong. */
export type Check<O> = { data: O; issues?: undefined } | { data?: undefined; issues: readonly Issue[] };

/**
 * The compose form's state: its values, errors and the moments fields are checked (./form-errors.ts).
 * Compose keeps every value in one object and sets each field itself, so react-hook-form did
 * little here but weighed 13.5 KiB of the screen's first load; the schema, as before, loads with
 * the first check (`check`).
 */
export function useComposeForm<V extends Record<string, unknown>, O>({ defaultValues, check }: { defaultValues: V; check: (values: V) => Promise<Check<O>> }) {
  const [values, setValues] = React.useState(defaultValues);
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const [submitted, setSubmitted] = React.useState(false);
  const latest = React.useRef({ values, submitted, touched: new Set<string>() });
  latest.current.values = values;
  latest.current.submitted = submitted;
  const inputs = React.useRef(new Map<string, HTMLElement>());

  const checkFields = React.useCallback(
    async (names: string[], of: V) => {
      const result = await check(of);
      setErrors((previous) => replaceErrorsOf(previous, result.issues ? errorsFromIssues(result.issues) : {}, names));
    },
    [check],
  );

  const change = React.useCallback(<K extends keyof V & string>(name: K, value: V[K]): V => {
    const next = { ...latest.current.values, [name]: value };
    latest.current.values = next;
    setValues(next);
    return next;
  }, []);

  /** A field set by its own control (chips, rows, pickers): checked again on change once the form was submitted. */
  const setValue = React.useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) => {
      const next = change(name, value);
      if (latest.current.submitted) void checkFields([name], next);
    },
    [change, checkFields],
  );

  /** The props of a typed text field (input or textarea): value, change, blur, and a ref to focus it on an error. */
  const textField = <K extends keyof V & string>(name: K) => ({
    name,
    value: (values[name] ?? "") as string,
    ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const next = change(name, event.target.value as V[K]);
      if (checksOn("change", { touched: latest.current.touched.has(name), submitted: latest.current.submitted })) void checkFields([name], next);
    },
    onBlur: () => {
      const state = { touched: latest.current.touched.has(name), submitted: latest.current.submitted };
      latest.current.touched.add(name);
      if (checksOn("blur", state)) void checkFields([name], latest.current.values);
    },
  });

  /** The first typed field with an error takes the focus, as a form library would do on submit. */
  const focusFirst = (found: FieldErrors) => {
    for (const [name, element] of inputs.current) {
      if (found[name]) return element.focus();
    }
  };

  const handleSubmit = (onValid: (data: O) => void | Promise<void>) => async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    latest.current.submitted = true;
    const result = await check(latest.current.values);
    if (result.issues) {
      const found = errorsFromIssues(result.issues);
      setErrors(found);
      focusFirst(found);
      return;
    }
    setErrors({});
    await onValid(result.data);
  };

  /** An error the server found at a field (the review's answer). */
  const setError = (name: string, message: string) => {
    setErrors((previous) => ({ ...previous, [name]: message }));
    inputs.current.get(name)?.focus();
  };

  return { values, errors, submitted, setValue, textField, handleSubmit, setError };
}
