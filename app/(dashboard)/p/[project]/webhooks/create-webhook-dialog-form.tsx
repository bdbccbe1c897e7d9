"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangleIcon } from "lucide-react";
import { EVENT_TYPE_GROUPS, EVENT_TYPES, type EventType } from "@/lib/schemas/events";
import { createWebhookForm, privateAddressReason, type CreateWebhookForm } from "@/lib/schemas/webhooks-form";
import { webhookKeys, webhookMutations } from "@/lib/queries/webhooks";
import { TextField } from "@/components/common/text-field";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField, FormItem, FormMessage } from "@/components/ui/form";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { SecretReveal } from "@/components/common/secret-reveal";
import { useReauth } from "@/components/reauth/reauth";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog } from "@/components/common/form-dialog";

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
      <div className="grid grid-cols-2 gap-x-4 gap-y-1.5 pl-6">
        {types.map((t) => (
          <label key={t} className="flex items-center gap-2 font-mono text-xs">
            <Checkbox checked={value.includes(t)} onCheckedChange={(c) => onChange(c ? [...value, t] : value.filter((v) => v !== t))} />
            {t}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** New endpoint: URL (private addresses warned about) and events by group; the signing secret is shown once. */
export default function CreateWebhookDialogForm({ project, open, onOpenChange: setOpen, trigger }: { project: string } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const { guarded, dialog: reauthDialog } = useReauth();
  const form = useForm<CreateWebhookForm>({ resolver: zodResolver(createWebhookForm), defaultValues: { url: "", eventTypes: DEFAULT_EVENTS }, mode: "onTouched" });
  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: CreateWebhookForm) => guarded(() => webhookMutations.create(project, v)),
    gcTime: 0,
    onSuccess: () => {
      setOpen(false);
      form.reset();
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all(project) });
    },
  });
  const url = form.watch("url");
  const warning = url ? privateAddressReason(url) : null;
  const created = mutation.data ?? null;

  return (
    <>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        trigger={trigger}
        className="max-h-[90vh] overflow-y-auto sm:max-w-xl"
        title="Add a webhook"
        description="The service sends a signed POST to this URL for every event you choose."
        form={form}
        onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
        pending={mutation.isPending}
        error={formError}
        submitLabel="Add webhook"
      >
        <TextField control={form.control} name="url" label="Endpoint URL" type="url" spellCheck={false} placeholder="https://api.example.com/webhooks/mail">
          {warning && (
            <p role="note" className="flex items-start gap-2 rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground" data-private-warning="">
              <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              This host is {warning}. The service delivers from its own network, where this address reaches something else or nothing at all.
            </p>
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
