"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { Contact } from "@/lib/schemas/contacts";
import { resubscribeRequest } from "@/lib/schemas/contacts-form";
import { contactKeys, contactMutations } from "@/lib/queries/contacts";
import { Textarea } from "@/components/ui/textarea";
import { describeError } from "@/components/common/error-advice";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog } from "@/components/common/form-dialog";

/** Resubscribing a contact, with the reason for the audit log; loaded when its button is first used (./contact-screen.tsx). */
export function ResubscribeDialogForm({ project, contact, open, onOpenChange: setOpen, trigger }: { project: string; contact: Contact } & LazyDialogProps) {
  const [reason, setReason] = React.useState("");
  const [fieldError, setFieldError] = React.useState<string | null>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => contactMutations.resubscribe(project, contact.id, reason),
    onSuccess: (c) => {
      queryClient.setQueryData(contactKeys.one(project, contact.id), c);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all(project) });
      toast.success("Contact resubscribed", { description: `${c.email} receives mail again. The reason is in the audit log.` });
      setOpen(false);
      setReason("");
    },
  });
  const failed = mutation.error ? describeError(mutation.error) : null;
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={<>Resubscribe {contact.email}?</>}
      description="This person unsubscribed. Resubscribe only when they asked for it; the reason is recorded in the audit log with your name."
      formClassName="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = resubscribeRequest.safeParse({ reason });
        if (!parsed.success) return setFieldError(parsed.error.issues[0].message);
        setFieldError(null);
        mutation.mutate();
      }}
      pending={mutation.isPending}
      error={failed}
      submitLabel="Resubscribe"
    >
      <label htmlFor="resubscribe-reason" className="text-sm font-medium">
        Reason
      </label>
      <Textarea id="resubscribe-reason" value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={fieldError ? true : undefined} placeholder="Asked to be added back by email on 12 March (ticket 4821)" />
      {fieldError && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">Reason: {fieldError}</p>}
    </FormDialog>
  );
}
