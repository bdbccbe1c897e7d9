"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { PASSKEYS, passkeyRenameRequest, type PasskeyRenameRequest, type PasskeyView } from "@/lib/schemas/passkeys";
import { passkeyMutations, twoFactorKeys } from "@/lib/queries/two-factor";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { TextField } from "@/components/common/text-field";

/** Renaming one passkey. */
export default function PasskeyRenameDialogForm({ passkey, open, onOpenChange, trigger }: LazyDialogProps & { passkey: PasskeyView }) {
  const queryClient = useQueryClient();
  const form = useForm<PasskeyRenameRequest>({ resolver: zodResolver(passkeyRenameRequest), defaultValues: { name: passkey.name }, mode: "onTouched" });
  const { dialog } = useFormDialogMutation(form, ["name"], {
    mutationFn: (values: PasskeyRenameRequest) => passkeyMutations.rename(passkey.id, values.name),
    onSuccess: (passkeys) => {
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() });
      onOpenChange(false);
      form.reset({ name: passkeys.find((p) => p.id === passkey.id)?.name ?? "" });
    },
  });
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} trigger={trigger} title="Rename passkey" description={`Now “${passkey.name}”.`} {...dialog} submitLabel="Rename">
      <TextField control={form.control} name="name" label="Name" maxLength={PASSKEYS.nameMaxLength} autoComplete="off" />
    </FormDialog>
  );
}
