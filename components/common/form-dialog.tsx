"use client";

import * as React from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import type { UseMutationOptions } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { FormError } from "@/components/ui/form-error";
import { useFormMutation } from "@/components/hooks/use-form-mutation";

/**
 * A form in a dialog: title and description, the fields, then the error the server gave (with
 * its correlation id), Cancel, and the submit button, which shows it is working and cannot be
 * pressed twice. While the form is saving, no way of closing
 * works — Escape, a click outside, the close button, Cancel — so a save in flight is never
 * mistaken for an abandoned one; a refused attempt says why. `onClosed` runs whenever the user
 * closes it (Cancel included), for forgetting the last error.
 */
export function FormDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  form,
  onSubmit,
  pending,
  error,
  submitLabel,
  onClosed,
  className,
  formClassName = "grid gap-4",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it, when the dialog has one (wrapped in DialogTrigger). */
  trigger?: React.ReactElement;
  title: React.ReactNode;
  description: React.ReactNode;
  /** The react-hook-form instance its fields read through <FormField>, when they do. */
  form?: UseFormReturn<any, any, any>;
  onSubmit: React.FormEventHandler<HTMLFormElement>;
  pending: boolean;
  error?: { message?: string | null; correlationId?: string | null } | null;
  submitLabel: React.ReactNode;
  onClosed?: () => void;
  className?: string;
  formClassName?: string;
  children: React.ReactNode;
}) {
  const [refused, setRefused] = React.useState(false);
  if (refused && !pending) setRefused(false);

  function change(next: boolean) {
    if (!next && pending) {
      setRefused(true);
      return;
    }
    onOpenChange(next);
    if (!next) onClosed?.();
  }

  const fields = (
    <form noValidate className={formClassName} onSubmit={onSubmit}>
      {children}
      {refused && (
        <p role="status" className="text-sm text-muted-foreground">
          Still saving — this closes when it is done.
        </p>
      )}
      <FormError message={error?.message} correlationId={error?.correlationId} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => change(false)} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );

  return (
    <Dialog open={open} onOpenChange={change}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent className={className} closeDisabled={pending}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {form ? <Form {...form}>{fields}</Form> : fields}
      </DialogContent>
    </Dialog>
  );
}

/** The props a form dialog is opened with (LazyDialogProps, or a dialog the screen opens itself). */
export type FormDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; trigger?: React.ReactElement };

/**
 * The mutation behind a <FormDialog>'s form (useFormMutation: a refusal goes under the field it
 * names, else above the buttons), and `dialog`, the props that tie the two together — spread it
 * on <FormDialog>: submitting checks the form and runs the mutation, the button shows it is
 * working, and closing the dialog forgets the last error. Given `dialogProps` (the dialog's
 * `open`, `onOpenChange` and `trigger`), `dialog` carries them too, and a save closes the dialog
 * and empties the form before `onSuccess` runs.
 */
export function useFormDialogMutation<T extends FieldValues, TOut extends FieldValues, TData, D extends FormDialogProps | undefined = undefined>(
  form: UseFormReturn<T, any, TOut>,
  fields: readonly Path<T>[],
  { dialogProps, ...options }: Omit<UseMutationOptions<TData, unknown, TOut>, "onMutate" | "onError"> & { dialogProps?: D },
) {
  const { mutation, formError, reset } = useFormMutation<T, TData, TOut>(form as unknown as UseFormReturn<T>, fields, {
    ...options,
    onSuccess: (...args) => {
      if (dialogProps) {
        dialogProps.onOpenChange(false);
        form.reset();
      }
      return options.onSuccess?.(...args);
    },
  });
  const tie = {
    form,
    onSubmit: form.handleSubmit((values) => mutation.mutate(values)),
    pending: mutation.isPending,
    error: formError,
    onClosed: reset,
  };
  const dialog = { ...dialogProps, ...tie } as typeof tie & (D extends FormDialogProps ? FormDialogProps : unknown);
  return { mutation, dialog };
}
