import * as React from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-error";

/**
 * The end of every form in a dialog: the error the server gave (with its correlation id),
 * then Cancel and the submit button, which shows it is working and cannot be pressed twice.
 */
export function FormDialogFooter({
  error,
  pending,
  submitLabel,
  onCancel,
  submitVariant,
}: {
  error?: { message?: string | null; correlationId?: string | null } | null;
  pending: boolean;
  submitLabel: React.ReactNode;
  onCancel: () => void;
  submitVariant?: React.ComponentProps<typeof Button>["variant"];
}) {
  return (
    <>
      <FormError message={error?.message} correlationId={error?.correlationId} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant={submitVariant} pending={pending}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
