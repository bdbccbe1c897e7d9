"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { factorCodeRequest, type FactorCodeRequest } from "@/lib/schemas/two-factor";
import { twoFactorKeys, twoFactorMutations } from "@/lib/queries/two-factor";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { TextField } from "@/components/common/text-field";
import { SecretReveal } from "@/components/common/secret-reveal";
import { FormError } from "@/components/ui/form-error";
import { TotpEnrolmentView } from "./totp-enrolment-view";

/**
 * Setting up the authenticator app: opening the dialog asks for a new secret (pending on the
 * server until a right code confirms it), the QR code and the key are shown, and a right code
 * turns it on and answers the recovery codes, shown once (SecretReveal). The secret and the
 * codes live in their mutations only (gcTime 0, reset on close): never in a cache (rule 7).
 */
export default function TotpSetupDialogForm({ open, onOpenChange, trigger }: LazyDialogProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const start = useMutation({ mutationFn: twoFactorMutations.startTotp, gcTime: 0 });
  const { mutate: begin, isIdle } = start;
  React.useEffect(() => {
    if (open && isIdle) begin();
  }, [open, isIdle, begin]);

  const form = useForm<FactorCodeRequest>({ resolver: zodResolver(factorCodeRequest), defaultValues: { code: "" }, mode: "onTouched" });
  const { mutation: confirm, dialog } = useFormDialogMutation(form, ["code"], {
    mutationFn: (values: FactorCodeRequest) => twoFactorMutations.confirmTotp(values.code),
    gcTime: 0,
    onSuccess: () => {
      onOpenChange(false);
      start.reset();
      form.reset();
    },
  });
  const codes = confirm.data?.codes ?? null;

  return (
    <>
      <FormDialog
        open={open}
        onOpenChange={(next) => {
          onOpenChange(next);
          if (!next) {
            start.reset();
            form.reset();
          }
        }}
        trigger={trigger}
        title="Set up an authenticator app"
        description="Scan the QR code with your authenticator app, or type the key into it, then enter the 6-digit code it shows."
        {...dialog}
        submitLabel="Turn on"
      >
        {start.isPending && <p className="text-sm text-muted-foreground">Making a new key…</p>}
        {start.error && <FormError message={start.error.message} />}
        {start.data && <TotpEnrolmentView enrolment={start.data} />}
        <TextField control={form.control} name="code" label="Code from the app" autoComplete="one-time-code" inputMode="numeric" spellCheck={false} />
      </FormDialog>
      <SecretReveal
        secret={codes ? codes.join(" ") : null}
        title="Save your recovery codes"
        description="Each code signs you in once if you lose your phone. Keep them somewhere safe, such as a password manager: they are shown only now."
        label="set of recovery codes"
        onClose={async () => {
          confirm.reset();
          // Only now: the screen swaps this button for "Turn off" once the status says on, and
          // that would take the codes away before they were read.
          await queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() });
          // The shell and the pages read the guard again: a required factor no longer holds the user here.
          router.refresh();
        }}
      />
    </>
  );
}
