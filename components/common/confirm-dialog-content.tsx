"use client";

import * as React from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormError } from "@/components/ui/form-error";
import { describeError } from "@/components/common/error-advice";

export type ConfirmDialogProps = {
  title: string;
  description: React.ReactNode;
  confirmLabel?: string;
  destructive?: boolean;
  typeToConfirm?: string;
  onConfirm: () => Promise<unknown> | unknown;
  trigger?: React.ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
};

/** The confirmation dialog itself, loaded when it is first opened (./confirm-dialog.tsx). */
export function ConfirmDialogContent({
  title,
  description,
  confirmLabel = "Confirm",
  destructive = true,
  typeToConfirm,
  onConfirm,
  trigger,
  open: openProp,
  onOpenChange,
}: ConfirmDialogProps) {
  const [openState, setOpenState] = React.useState(false);
  const open = openProp ?? openState;
  const [pending, setPending] = React.useState(false);
  const [error, setError] = React.useState<unknown>(null);
  const [typed, setTyped] = React.useState("");
  const inputId = React.useId();

  function setOpen(next: boolean) {
    if (pending) return; // do not close halfway through the action
    if (!next) {
      setError(null);
      setTyped("");
    }
    setOpenState(next);
    onOpenChange?.(next);
  }

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setPending(false);
      setOpenState(false);
      setTyped("");
      onOpenChange?.(false);
    } catch (e) {
      setPending(false);
      setError(e);
    }
  }

  const blocked = typeToConfirm !== undefined && typed.trim() !== typeToConfirm;
  const described = error ? describeError(error) : null;

  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div>{description}</div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        {typeToConfirm !== undefined && (
          <div className="grid gap-2">
            <Label htmlFor={inputId}>
              Type <span className="font-mono font-semibold">{typeToConfirm}</span> to confirm
            </Label>
            <Input id={inputId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" disabled={pending} />
          </div>
        )}
        <FormError message={described?.message} correlationId={described?.correlationId} />
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button type="button" variant={destructive ? "destructive" : "default"} onClick={confirm} pending={pending} disabled={blocked}>
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
