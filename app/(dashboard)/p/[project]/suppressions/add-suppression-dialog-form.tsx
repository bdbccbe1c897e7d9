"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { addSuppressionRequest, SUPPRESSION_REASONS, type AddSuppressionRequest } from "@/lib/schemas/suppressions";
import { suppressionKeys, suppressionMutations } from "@/lib/queries/suppressions";
import { TextField } from "@/components/common/text-field";
import { SelectField } from "@/components/common/select-field";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const FIELDS = ["email", "reason"] as const;

/** Block an address by hand; the reason goes to the service and to the audit log. */
export default function AddSuppressionDialogForm({ project, ...lazy }: { project: string } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<AddSuppressionRequest>({ resolver: zodResolver(addSuppressionRequest), defaultValues: { email: "", reason: "manual" }, mode: "onTouched" });
  const { dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (v: AddSuppressionRequest) => suppressionMutations.add(project, v),
    onSuccess: async (s) => {
      toast.success("Address suppressed", { description: `Sends to ${s.email} are now rejected.` });
      await queryClient.invalidateQueries({ queryKey: suppressionKeys.all(project) });
    },
  });

  return (
    <FormDialog
      {...dialog}
      title="Suppress an address"
      description="Every send to it is rejected until the suppression is removed at the service."
      submitLabel="Suppress address"
    >
      <TextField control={form.control} name="email" label="Email address" type="email" placeholder="ada@example.com" />
      <SelectField control={form.control} name="reason" label="Reason" options={SUPPRESSION_REASONS} description="Recorded with the suppression and in the audit log." />
    </FormDialog>
  );
}
