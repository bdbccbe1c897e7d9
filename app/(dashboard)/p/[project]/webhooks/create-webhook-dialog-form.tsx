"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { EVENT_TYPE_GROUPS, EVENT_TYPES, type EventType } from "@/lib/schemas/events";
import { createWebhookForm, privateAddressReason, type CreateWebhookForm } from "@/lib/schemas/webhooks-form";
import { webhookKeys, webhookMutations } from "@/lib/queries/webhooks";
import { TextField } from "@/components/common/text-field";
import { WarningNote } from "@/components/common/warning-note";
import { Checkbox } from "@/components/ui/checkbox";
import { CheckboxList } from "@/components/common/checkbox-list";
import { FormField, FormItem, FormMessage } from "@/components/ui/form";
import { SecretReveal } from "@/components/common/secret-reveal";
import { useReauth } from "@/components/reauth/reauth";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const FIELDS = ["url", "eventTypes"] as const;
const DEFAULT_EVENTS: EventType[] = ["delivery", "bounce", "complaint"];

function EventGroup({ name, types, value, onChange }: { name: string; types: readonly EventType[]; value: EventType[]; onChange: (v: EventType[]) => void }) {
  const chosen = types.filter((t) => value.includes(t)).length;
  const all = chosen === types.length;
  return (
    <fieldset className="space-y-2 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">{name}</legend>
      <label className="flex items-center gap-2 text-sm font-medium">
        <Checkbox
          checked={all ? true : chosen > 0 ? "indeterminate" : false}
          onCheckedChange={() => onChange(all ? value.filter((v) => !types.includes(v)) : [...new Set([...value, ...types])])}
        />
        All {name.toLowerCase()} events
      </label>
      <CheckboxList options={types} value={value} onChange={onChange} className="grid grid-cols-2 gap-x-4 gap-y-1.5 pl-6" />
    </fieldset>
  );
}

/** New endpoint: URL (private addresses warned about) and events by group; the signing secret is shown once. */
export default function CreateWebhookDialogForm({ project, ...lazy }: { project: string } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const { guarded, dialog: reauthDialog } = useReauth();
  const form = useForm<CreateWebhookForm>({ resolver: zodResolver(createWebhookForm), defaultValues: { url: "", eventTypes: DEFAULT_EVENTS }, mode: "onTouched" });
  const { mutation, dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (v: CreateWebhookForm) => guarded(() => webhookMutations.create(project, v)),
    gcTime: 0,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all(project) });
    },
  });
  const url = form.watch("url");
  const warning = url ? privateAddressReason(url) : null;
  const created = mutation.data ?? null;

  return (
    <>
      <FormDialog
        {...dialog}
        className="max-h-[90vh] overflow-y-auto sm:max-w-xl"
        title="Add a webhook"
        description="The service sends a signed POST to this URL for every event you choose."
        submitLabel="Add webhook"
      >
        <TextField control={form.control} name="url" label="Endpoint URL" type="url" spellCheck={false} placeholder="https://api.example.com/webhooks/mail">
          {warning && (
            <WarningNote data-private-warning="">
              This host is {warning}. The service delivers from its own network, where this address reaches something else or nothing at all.
            </WarningNote>
          )}
        </TextField>
        <FormField
          control={form.control}
          name="eventTypes"
          render={({ field }) => (
            <FormItem>
              <p className="text-sm font-medium">Events</p>
              {Object.entries(EVENT_TYPE_GROUPS).map(([name, types]) => (
                <EventGroup key={name} name={name} types={types as readonly EventType[]} value={field.value as EventType[]} onChange={field.onChange} />
              ))}
              <p className="text-xs text-muted-foreground">{field.value.length} of {EVENT_TYPES.length} event types chosen.</p>
              <FormMessage />
            </FormItem>
          )}
        />
      </FormDialog>
      {reauthDialog}
      <SecretReveal
        secret={created?.signingSecret ?? null}
        label="signing secret"
        title="Webhook signing secret"
        description={<>Your endpoint verifies each delivery to <span className="break-all font-mono">{created?.url}</span> with this secret.</>}
        onClose={() => mutation.reset()}
      />
    </>
  );
}
