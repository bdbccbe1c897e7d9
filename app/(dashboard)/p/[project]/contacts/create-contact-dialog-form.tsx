"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useForm, get } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { contactForm, toCreateContact, type ContactForm } from "@/lib/schemas/contacts-form";
import { contactKeys, contactMutations } from "@/lib/queries/contacts";
import { NameValueRows } from "@/components/compose/name-value-rows";
import { fieldMessageText } from "@/components/ui/field-message";
import { Input } from "@/components/ui/input";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const FIELDS = ["email", "firstName", "lastName"] as const;

/** Email, names, subscribed, metadata as key/value rows; opens the contact once created. */
export default function CreateContactDialogForm({ project, ...lazy }: { project: string } & LazyDialogProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<ContactForm>({ resolver: zodResolver(contactForm), mode: "onTouched", defaultValues: { email: "", firstName: "", lastName: "", subscribed: true, metadata: [] } });
  const { dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (v: ContactForm) => contactMutations.create(project, toCreateContact(v)),
    onSuccess: async (c) => {
      toast.success("Contact created", { description: c.email });
      await queryClient.invalidateQueries({ queryKey: contactKeys.all(project) });
      router.push(`/p/${encodeURIComponent(project)}/contacts/${encodeURIComponent(c.id)}`);
    },
  });
  const errors = form.formState.errors;
  const err = (path: string) => {
    const m = (get(errors, path) as { message?: string } | undefined)?.message;
    return m ? fieldMessageText(m) : undefined;
  };
  const rows = (form.watch("metadata") ?? []).map((r) => ({ name: r.key, value: r.value }));
  const rowErrors = (errors.metadata as unknown as ({ key?: { message?: string }; value?: { message?: string } } | undefined)[] | undefined)?.map?.((e) => ({ name: e?.key?.message, value: e?.value?.message }));

  return (
    <FormDialog
      {...dialog}
      title="Create a contact"
      description="The service holds contacts; the dashboard remembers the ones it creates so you can find them here."
      submitLabel="Create contact"
    >
      {(["email", "firstName", "lastName"] as const).map((name) => (
        <div key={name} className="space-y-1.5">
          <label htmlFor={`contact-${name}`} className="text-sm font-medium">
            {name === "email" ? "Email" : name === "firstName" ? "First name" : "Last name"}
          </label>
          <Input id={`contact-${name}`} type={name === "email" ? "email" : "text"} {...form.register(name)} aria-invalid={err(name) ? true : undefined} />
          {err(name) && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{err(name)}</p>}
        </div>
      ))}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...form.register("subscribed")} /> Subscribed
      </label>
      <NameValueRows
        id="metadata"
        legend="Metadata"
        rows={rows}
        onChange={(r) => form.setValue("metadata", r.map((x) => ({ key: x.name, value: x.value })), { shouldValidate: form.formState.isSubmitted })}
        errors={rowErrors}
        addLabel="Add field"
        namePlaceholder="plan"
        valuePlaceholder="pro"
      />
    </FormDialog>
  );
}
