"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { toast } from "@/components/ui/toast";
import { PASSKEYS } from "@/lib/schemas/passkeys";
import { passkeyMutations, twoFactorKeys } from "@/lib/queries/two-factor";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { TextField } from "@/components/common/text-field";

/** The name is optional here: left empty, the server names the passkey after the authenticator. */
const addForm = z.object({ name: z.string().trim().max(PASSKEYS.nameMaxLength, { error: `must be at most ${PASSKEYS.nameMaxLength} characters` }) });
type AddForm = z.output<typeof addForm>;

/**
 * Adding a passkey: the user names it (or not), then the browser's own prompt creates it on
 * the authenticator (a phone, a laptop's sensor, a security key) and the server verifies it.
 */
export default function PasskeyAddDialogForm(lazy: LazyDialogProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const form = useForm<AddForm>({ resolver: zodResolver(addForm), defaultValues: { name: "" }, mode: "onTouched" });
  const { dialog } = useFormDialogMutation(form, ["name"], {
    dialogProps: lazy,
    mutationFn: (values: AddForm) => passkeyMutations.add(values.name || undefined),
    onSuccess: (passkeys) => {
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() });
      toast.success("Passkey added", { description: `“${passkeys.at(-1)?.name ?? "Passkey"}” can now confirm your sign-in.` });
      // A role that requires a second factor was waiting for this one: the rest of the dashboard opens.
      router.refresh();
    },
  });
  return (
    <FormDialog
      title="Add a passkey"
      description="Your browser will ask you to create a passkey with your device's screen lock, a phone or a security key. Give it a name you will recognise, or leave it empty."
      {...dialog}
      submitLabel="Continue"
    >
      <TextField control={form.control} name="name" label="Name (optional)" placeholder="e.g. Work laptop" maxLength={PASSKEYS.nameMaxLength} autoComplete="off" />
    </FormDialog>
  );
}
