"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { factorCodeRequest, type FactorCodeRequest } from "@/lib/schemas/two-factor";
import { twoFactorKeys, twoFactorMutations } from "@/lib/queries/two-factor";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { TextField } from "@/components/common/text-field";

/** Turning the app off takes a code from it (or a recovery code): an open session alone is not enough. */
export default function TotpOffDialogForm(lazy: LazyDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<FactorCodeRequest>({ resolver: zodResolver(factorCodeRequest), defaultValues: { code: "" }, mode: "onTouched" });
  const { dialog } = useFormDialogMutation(form, ["code"], {
    dialogProps: lazy,
    mutationFn: (values: FactorCodeRequest) => twoFactorMutations.disableTotp(values.code),
    onSuccess: (status) => {
      queryClient.setQueryData(twoFactorKeys.status(), status);
      toast.success("Authenticator app turned off", { description: "Sign-in asks for your password only; your recovery codes no longer work." });
    },
  });
  return (
    <FormDialog
      title="Turn off the authenticator app?"
      description="Sign-in will ask for your password only, and your recovery codes stop working. Enter a code from the app, or a recovery code, to confirm."
      {...dialog}
      submitLabel="Turn off"
    >
      <TextField control={form.control} name="code" label="Code" autoComplete="one-time-code" spellCheck={false} />
    </FormDialog>
  );
}
