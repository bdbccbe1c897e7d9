"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { addSuppressionRequest, SUPPRESSION_REASONS, type AddSuppressionRequest } from "@/lib/schemas";
import { suppressionKeys, suppressionMutations } from "@/lib/queries/suppressions";
import { TextField } from "@/components/common/text-field";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog } from "@/components/common/form-dialog";

const FIELDS = ["email", "reason"] as const;

/** Block an address by hand; the reason goes to the service and to the audit log. */
export default function AddSuppressionDialogForm({ project, open, onOpenChange: setOpen, trigger }: { project: string } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<AddSuppressionRequest>({ resolver: zodResolver(addSuppressionRequest), defaultValues: { email: "", reason: "manual" }, mode: "onTouched" });
  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: AddSuppressionRequest) => suppressionMutations.add(project, v),
    onSuccess: async (s) => {
      toast.success("Address suppressed", { description: `Sends to ${s.email} are now rejected.` });
      setOpen(false);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: suppressionKeys.all(project) });
    },
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title="Suppress an address"
      description="Every send to it is rejected until the suppression is removed at the service."
      form={form}
      onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
      pending={mutation.isPending}
      error={formError}
      submitLabel="Suppress address"
    >
      <TextField control={form.control} name="email" label="Email address" type="email" placeholder="ada@example.com" />
      <FormField
        control={form.control}
        name="reason"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Reason</FormLabel>
            <Select value={field.value} onValueChange={field.onChange}>
              <FormControl>
                <SelectTrigger className="w-full">
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                {SUPPRESSION_REASONS.map((r) => (
                  <SelectItem key={r} value={r}>
                    {r}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormDescription>Recorded with the suppression and in the audit log.</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </FormDialog>
  );
}
