"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import type { Contact } from "@/lib/schemas/contacts";
import { resubscribeRequest, type ResubscribeRequest } from "@/lib/schemas/contacts-form";
import { contactKeys, contactMutations } from "@/lib/queries/contacts";
import { Textarea } from "@/components/ui/textarea";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

/** Resubscribing a contact, with the reason for the audit log; loaded when its button is first used (./contact-screen.tsx). */
export function ResubscribeDialogForm({ project, contact, ...lazy }: { project: string; contact: Contact } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<ResubscribeRequest>({ resolver: zodResolver(resubscribeRequest), defaultValues: { reason: "" } });
  const { dialog } = useFormDialogMutation(form, ["reason"], {
    dialogProps: lazy,
    mutationFn: (values: ResubscribeRequest) => contactMutations.resubscribe(project, contact.id, values.reason),
    onSuccess: (c) => {
      queryClient.setQueryData(contactKeys.one(project, contact.id), c);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all(project) });
      toast.success("Contact resubscribed", { description: `${c.email} receives mail again. The reason is in the audit log.` });
    },
  });
  const fieldError = form.formState.errors.reason?.message;
  return (
    <FormDialog
      title={<>Resubscribe {contact.email}?</>}
      description="This person unsubscribed. Resubscribe only when they asked for it; the reason is recorded in the audit log with your name."
      formClassName="space-y-3"
      {...dialog}
      submitLabel="Resubscribe"
    >
      <label htmlFor="resubscribe-reason" className="text-sm font-medium">
        Reason
      </label>
      <Textarea id="resubscribe-reason" {...form.register("reason")} aria-invalid={fieldError ? true : undefined} placeholder="Asked to be added back by email on 12 March (ticket 4821)" />
      {fieldError && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">Reason: {fieldError}</p>}
    </FormDialog>
  );
}
